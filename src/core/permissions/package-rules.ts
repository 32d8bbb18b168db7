import { onlyVersionOrHelp, subcommand, hasOption, type Rule } from './command-args.js';

/**
 * Package managers (spec 5.1 "package installs"): install-like subcommands are package_install
 * and network; read-only ones (list, show, search…) are harmless; anything else may run project
 * scripts (`npm test`, `cargo build`), so it is an unknown command.
 */

interface PackageSpec {
  install: string[];
  network?: string[];
  read: string[];
  /** With no subcommand at all (bare `yarn` installs). */
  bare?: 'install' | 'read';
  withValue?: string[];
}

export function packageManager(spec: PackageSpec): Rule {
  return (cmd, ctx) => {
    const sub = subcommand(cmd.args, spec.withValue).name;
    if (sub === '') {
      if (spec.bare === 'install') {
        ctx.hint('package_install', cmd.raw);
        ctx.hint('network', cmd.raw, 'downloads packages');
      } else if (!(spec.bare === 'read' || onlyVersionOrHelp(cmd.args))) ctx.hint('unknown_command', cmd.raw);
      return;
    }
    if (spec.install.includes(sub)) {
      ctx.hint('package_install', cmd.raw);
      ctx.hint('network', cmd.raw, 'downloads packages');
    } else if (spec.network?.includes(sub)) ctx.hint('network', cmd.raw);
    else if (!spec.read.includes(sub)) ctx.hint('unknown_command', cmd.raw, `${cmd.name} ${sub} may run project scripts or change files`);
  };
}

export const PIP: PackageSpec = { install: ['install', 'uninstall', 'download', 'wheel'], read: ['list', 'show', 'freeze', 'check', 'help', 'debug'] };
const NPM: PackageSpec = {
  install: ['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install', 'install-test', 'it', 'install-ci-test', 'update', 'up', 'upgrade', 'udpate', 'uninstall', 'un', 'unlink', 'remove', 'rm', 'r', 'link', 'ln', 'rebuild', 'rb', 'dedupe', 'ddp', 'prune', 'exec', 'x', 'create', 'init', 'innit'],
  network: ['publish', 'unpublish', 'login', 'logout', 'adduser', 'deprecate', 'dist-tag', 'owner', 'access', 'token', 'star', 'unstar', 'view', 'v', 'info', 'show', 'search', 's', 'outdated', 'audit', 'ping', 'whoami', 'team', 'org', 'hook', 'profile'],
  read: ['ls', 'list', 'll', 'la', 'help', 'root', 'prefix', 'bin', 'explain', 'why', 'help-search', 'query'],
};

const PACKAGE_MANAGERS: Record<string, PackageSpec> = {
  pip: PIP,
  pip3: PIP,
  npm: NPM,
  pnpm: { ...NPM, install: [...NPM.install, 'dlx'] },
  yarn: { install: ['add', 'install', 'remove', 'upgrade', 'up', 'upgrade-interactive', 'dlx', 'link', 'unlink', 'global', 'create'], network: ['publish', 'login', 'logout', 'info', 'npm', 'outdated', 'audit'], read: ['list', 'why', 'help', 'bin', 'config'], bare: 'install' },
  bun: { install: ['add', 'install', 'i', 'remove', 'rm', 'update', 'upgrade', 'link', 'x', 'create', 'pm'], network: ['publish'], read: ['help'] },
  apt: { install: ['install', 'reinstall', 'remove', 'purge', 'upgrade', 'full-upgrade', 'dist-upgrade', 'autoremove', 'update', 'build-dep', 'source', 'download', 'satisfy'], read: ['list', 'search', 'show', 'showsrc', 'policy', 'depends', 'rdepends', 'changelog'] },
  'apt-get': { install: ['install', 'reinstall', 'remove', 'purge', 'upgrade', 'dist-upgrade', 'autoremove', 'update', 'build-dep', 'source', 'download', 'check', 'clean', 'autoclean'], read: [] },
  aptitude: { install: ['install', 'reinstall', 'remove', 'purge', 'upgrade', 'safe-upgrade', 'full-upgrade', 'update', 'build-dep', 'download'], read: ['search', 'show', 'why', 'why-not'] },
  'apt-cache': { install: [], read: ['search', 'show', 'showpkg', 'showsrc', 'policy', 'depends', 'rdepends', 'pkgnames', 'stats', 'madison'] },
  yum: { install: ['install', 'reinstall', 'remove', 'erase', 'update', 'upgrade', 'downgrade', 'groupinstall', 'localinstall', 'makecache', 'autoremove'], read: ['list', 'info', 'search', 'provides', 'repolist'] },
  dnf: { install: ['install', 'reinstall', 'remove', 'erase', 'update', 'upgrade', 'downgrade', 'group', 'makecache', 'autoremove', 'swap'], read: ['list', 'info', 'search', 'provides', 'repolist', 'repoquery'] },
  zypper: { install: ['install', 'in', 'remove', 'rm', 'update', 'up', 'dist-upgrade', 'dup', 'refresh', 'ref'], read: ['search', 'se', 'info', 'if', 'packages', 'pa'] },
  apk: { install: ['add', 'del', 'upgrade', 'update', 'fix'], read: ['info', 'search', 'list', 'policy'] },
  brew: { install: ['install', 'reinstall', 'uninstall', 'remove', 'rm', 'upgrade', 'update', 'tap', 'untap', 'link', 'unlink', 'cleanup', 'bundle', 'services'], read: ['list', 'ls', 'info', 'search', 'deps', 'uses', 'leaves', 'config', 'doctor', 'outdated', 'home', 'desc', '--prefix', '--cellar', '--repository'] },
  port: { install: ['install', 'uninstall', 'upgrade', 'selfupdate', 'sync', 'activate', 'deactivate'], read: ['list', 'installed', 'info', 'search', 'deps', 'outdated'] },
  snap: { install: ['install', 'remove', 'refresh', 'revert', 'enable', 'disable'], read: ['list', 'info', 'find', 'version'] },
  flatpak: { install: ['install', 'uninstall', 'update', 'remote-add', 'remote-delete'], read: ['list', 'info', 'search', 'remotes'] },
  'nix-env': { install: ['-i', '--install', '-e', '--uninstall', '-u', '--upgrade'], read: ['-q', '--query'] },
  gem: { install: ['install', 'uninstall', 'update', 'cleanup', 'push', 'yank'], read: ['list', 'info', 'search', 'query', 'contents', 'environment', 'help', 'which', 'specification'] },
  cargo: { install: ['install', 'uninstall', 'add', 'remove', 'rm', 'update', 'fetch', 'publish', 'yank', 'login', 'owner'], read: ['help', 'search', 'tree', 'metadata', 'locate-project', 'pkgid', 'verify-project', 'read-manifest'] },
  go: { install: ['install', 'get'], read: ['version', 'help', 'doc'] },
  composer: { install: ['require', 'install', 'update', 'remove', 'upgrade', 'create-project', 'global', 'reinstall'], read: ['show', 'info', 'search', 'depends', 'why', 'why-not', 'outdated', 'licenses', 'validate', 'help', 'list'] },
  conda: { install: ['install', 'create', 'remove', 'uninstall', 'update', 'upgrade', 'env'], read: ['list', 'info', 'search', 'help'] },
  mamba: { install: ['install', 'create', 'remove', 'uninstall', 'update', 'upgrade', 'env'], read: ['list', 'info', 'search', 'help'] },
  micromamba: { install: ['install', 'create', 'remove', 'uninstall', 'update', 'self-update', 'env'], read: ['list', 'info', 'search'] },
  poetry: { install: ['add', 'install', 'remove', 'update', 'lock', 'self', 'publish', 'sync'], read: ['show', 'check', 'search', 'version', 'about', 'help'] },
  pipx: { install: ['install', 'uninstall', 'upgrade', 'upgrade-all', 'reinstall', 'reinstall-all', 'inject', 'run', 'ensurepath'], read: ['list', 'environment'] },
  bundle: { install: ['install', 'update', 'add', 'remove', 'lock', 'binstubs', 'outdated'], read: ['list', 'info', 'show', 'check', 'config', 'help'] },
  cpan: { install: [], read: [], bare: 'install' },
  cpanm: { install: [], read: [], bare: 'install' },
  pecl: { install: ['install', 'uninstall', 'upgrade', 'upgrade-all'], read: ['list', 'info', 'search', 'list-all'] },
  choco: { install: ['install', 'uninstall', 'upgrade', 'update'], read: ['list', 'search', 'info', 'find'] },
  winget: { install: ['install', 'uninstall', 'upgrade', 'import'], read: ['list', 'search', 'show'] },
  scoop: { install: ['install', 'uninstall', 'update', 'bucket'], read: ['list', 'search', 'info', 'status'] },
};

/** `npx`, `uvx`, `bunx`…: download (maybe) and run a package in one step. */
const runsPackage: Rule = (cmd, ctx) => {
  if (onlyVersionOrHelp(cmd.args)) return;
  ctx.hint('package_install', cmd.raw, 'may download and run a package');
  ctx.hint('network', cmd.raw, 'may download a package');
};

const uv: Rule = (cmd, ctx) => {
  const { name, rest } = subcommand(cmd.args);
  if (name === 'pip') return packageManager(PIP)({ ...cmd, args: rest }, ctx);
  if (['add', 'remove', 'sync', 'lock', 'tool', 'venv', 'self', 'python', 'init'].includes(name)) {
    ctx.hint('package_install', cmd.raw);
    ctx.hint('network', cmd.raw, 'downloads packages');
  } else if (name === 'run') ctx.hint('unknown_command', cmd.raw, 'runs a project script');
  else if (!['tree', 'version', 'help', '--version'].includes(name) && !onlyVersionOrHelp(cmd.args)) ctx.hint('unknown_command', cmd.raw);
};

export const PACKAGE_RULES: Readonly<Record<string, Rule>> = {
  ...Object.fromEntries(Object.entries(PACKAGE_MANAGERS).map(([name, spec]) => [name, packageManager(spec)])),
  npx: runsPackage, pnpx: runsPackage, bunx: runsPackage, uvx: runsPackage,
  uv,
  dpkg: (cmd, ctx) => {
    if (hasOption(cmd.args, 'irPa', ['--install', '--remove', '--purge', '--configure', '--unpack'])) ctx.hint('package_install', cmd.raw);
    else if (!hasOption(cmd.args, 'lLsS', ['--list', '--listfiles', '--status', '--search', '--print-architecture', '--version'])) ctx.hint('unknown_command', cmd.raw);
  },
  pacman: (cmd, ctx) => {
    if (hasOption(cmd.args, 'SRU', ['--sync', '--remove', '--upgrade'])) {
      ctx.hint('package_install', cmd.raw);
      ctx.hint('network', cmd.raw, 'downloads packages');
    } else if (!hasOption(cmd.args, 'Q', ['--query'])) ctx.hint('unknown_command', cmd.raw);
  },
};
