/**
 * git's option tables (spec 5.1), listed from what git 2.39 documents (`git help -a`, `man git`,
 * `man git-<command>`); the option-table test walks them against the installed git.
 *
 * Every subcommand has a class. git runs the repository's hooks from many commands, not only
 * commit: `reference-transaction` on every ref update, `post-index-change` on every index write,
 * `post-checkout`, `pre-push`, `pre-auto-gc`…, so every command that changes refs or the index
 * is `hooks` (write and code). Commands that run a program by design (difftool, bisect run,
 * filter-branch, credential helpers, other version control systems) are `code`.
 */

export type GitClass = 'read' | 'write' | 'delete' | 'hooks' | 'network' | 'network+hooks' | 'network+code' | 'code';

export const GIT_SUBCOMMANDS: Readonly<Record<string, GitClass>> = {
  // read only
  status: 'read', log: 'read', diff: 'read', show: 'read', blame: 'read', annotate: 'read', shortlog: 'read', describe: 'read',
  'rev-parse': 'read', 'rev-list': 'read', 'ls-files': 'read', 'ls-tree': 'read', 'cat-file': 'read', grep: 'read', help: 'read',
  version: 'read', whatchanged: 'read', 'count-objects': 'read', fsck: 'read', 'check-ignore': 'read', 'check-attr': 'read',
  'name-rev': 'read', 'merge-base': 'read', 'for-each-ref': 'read', 'show-ref': 'read', 'show-branch': 'read', 'diff-tree': 'read',
  'diff-files': 'read', 'diff-index': 'read', var: 'read', cherry: 'read', 'range-diff': 'read', 'check-mailmap': 'read',
  'check-ref-format': 'read', column: 'read', 'get-tar-commit-id': 'read', 'show-index': 'read', 'verify-pack': 'read', 'patch-id': 'read',
  stripspace: 'read', 'fmt-merge-msg': 'read', 'fast-export': 'read', 'pack-redundant': 'read',
  // the read-only forms of these are told apart by git-rule.ts; their other forms change refs or the index
  branch: 'hooks', tag: 'hooks', remote: 'hooks', stash: 'hooks', reflog: 'hooks', worktree: 'hooks', config: 'write', 'symbolic-ref': 'hooks',
  // change refs or the index: hooks run
  add: 'hooks', commit: 'hooks', checkout: 'hooks', switch: 'hooks', restore: 'hooks', reset: 'hooks', merge: 'hooks', rebase: 'hooks',
  'cherry-pick': 'hooks', revert: 'hooks', am: 'hooks', apply: 'hooks', mv: 'hooks', rm: 'hooks', notes: 'hooks', replace: 'hooks',
  'update-ref': 'hooks', 'update-index': 'hooks', 'read-tree': 'hooks', 'checkout-index': 'hooks', 'sparse-checkout': 'hooks',
  gc: 'hooks', maintenance: 'hooks', 'pack-refs': 'hooks', 'merge-tree': 'hooks', 'fast-import': 'hooks', rerere: 'hooks',
  // write objects or files only
  init: 'write', 'hash-object': 'write', 'commit-tree': 'write', 'write-tree': 'write', mktag: 'write', mktree: 'write', repack: 'write',
  'commit-graph': 'write', 'multi-pack-index': 'write', 'index-pack': 'write', 'pack-objects': 'write', 'unpack-objects': 'write',
  'unpack-file': 'write', 'merge-file': 'write', 'format-patch': 'write', archive: 'write', bundle: 'write', 'update-server-info': 'write',
  'interpret-trailers': 'write', mailinfo: 'write', mailsplit: 'write', bugreport: 'write', diagnose: 'write',
  clean: 'delete', prune: 'delete', 'prune-packed': 'delete',
  // the network
  push: 'network+hooks', pull: 'network+hooks', fetch: 'network+hooks', clone: 'network+hooks', 'ls-remote': 'network',
  'request-pull': 'network', 'imap-send': 'network', 'fetch-pack': 'network+code', 'send-pack': 'network+code', 'send-email': 'network+code',
  daemon: 'network+code', 'http-backend': 'network+code', svn: 'network+code', p4: 'network+code', archimport: 'network+code',
  cvsexportcommit: 'network+code', cvsimport: 'network+code', cvsserver: 'network+code', quiltimport: 'code',
  // run a program by design, or enter other repositories
  bisect: 'code', difftool: 'code', mergetool: 'code', 'filter-branch': 'code', instaweb: 'code', gitweb: 'code', gui: 'code',
  citool: 'code', gitk: 'code', credential: 'code', 'credential-cache': 'code', 'credential-store': 'code', hook: 'code',
  'for-each-repo': 'code', submodule: 'code', 'merge-index': 'code', 'merge-one-file': 'code', 'sh-i18n': 'code', 'sh-setup': 'code',
  scalar: 'code', 'verify-commit': 'code', 'verify-tag': 'code', lfs: 'code',
};

/** Options before the subcommand (`man git`). */
export const GIT_GLOBAL: Readonly<Record<string, string>> = {
  '-v': '-', '--version': '-', '-h': '-', '--help': '-', '--html-path': '-', '--man-path': '-', '--info-path': '-', '-P': '-',
  '--no-pager': '-', '--no-replace-objects': '-', '--literal-pathspecs': '-', '--glob-pathspecs': '-', '--noglob-pathspecs': '-',
  '--icase-pathspecs': '-', '--no-optional-locks': '-', '--list-cmds': 'v', '--namespace': 'v',
  // Another repository or work tree, configuration given here, another folder of git programs, a pager.
  '-C': 'code v', '-c': 'code v', '--config-env': 'code v', '--exec-path': 'code v', '--git-dir': 'code v', '--work-tree': 'code v',
  '--super-prefix': 'code v', '--bare': 'code', '-p': 'code', '--paginate': 'code',
};

/**
 * What an option of a read-only subcommand adds, where it adds something; every other documented
 * option of GIT_READ_OPTIONS adds nothing. '*' applies to every subcommand.
 */
export const GIT_OPTION_RISKS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // External diff drivers and textconv filters from configuration, a signature check (gpg), a pager, submodules' repositories.
  '*': { '--ext-diff': 'code', '--textconv': 'code', '--show-signature': 'code', '--recurse-submodules': 'code', '--submodule': 'code', '--output': 'write' },
  grep: { '-O': 'code', '--open-files-in-pager': 'code' },
  'cat-file': { '--filters': 'code', '--textconv': 'code' },
  help: { '-w': 'code', '--web': 'code', '-i': 'code', '--info': 'code', '-m': 'code', '--man': 'code' },
  config: { '-f': 'code', '--file': 'code', '--blob': 'code', '-e': 'code', '--edit': 'code' },
  tag: { '-e': 'code', '--edit': 'code', '-s': 'code', '--sign': 'code', '-u': 'code', '--local-user': 'code', '-v': 'code', '--verify': 'code', '-d': 'delete', '--delete': 'delete' },
  branch: { '--edit-description': 'code', '-d': 'delete', '-D': 'delete', '--delete': 'delete' },
  submodule: { '--recursive': 'code' },
  fsck: { '--lost-found': 'write' },
  reflog: { '--updateref': 'write', '--rewrite': 'write', '--stale-fix': 'write' },
  worktree: { '--lock': 'write' },
};

/** The documented options of the subcommands git-rule.ts reads as read-only (an `=` marks a value). */
export const GIT_READ_OPTIONS: Readonly<Record<string, string>> = {
  'status': '--ahead-behind --branch --column= --find-renames= --ignore-submodules= --ignored= --long --no-ahead-behind --no-column ' +
    '--no-renames --porcelain= --renames --short --show-stash --untracked-files= --verbose -b -s -u -v -z',
  'log': '--abbrev= --abbrev-commit --after= --all --all-match --alternate-refs --ancestry-path= --anchored= --author= --author-date-order ' +
    '--basic-regexp --before= --binary --bisect --boundary --branches= --break-rewrites= --check --cherry --cherry-mark --cherry-pick ' +
    '--children --clear-decorations --color= --color-moved= --color-moved-ws= --color-words= --combined-all-paths --committer= ' +
    '--compact-summary --cumulative --date= --date-order --decorate= --decorate-refs= --decorate-refs-exclude= --dense --diff-algorithm= ' +
    '--diff-filter= --diff-merges= --dirstat-by-file= --do-walk --dst-prefix= --encoding= --exclude= --exclude-first-parent-only ' +
    '--exclude-hidden= --expand-tabs= --ext-diff --extended-regexp --find-copies= --find-copies-harder --find-object= --find-renames= ' +
    '--first-parent --fixed-strings --follow --format= --full-diff --full-history --full-index --function-context --glob= --graph --grep= ' +
    '--grep-reflog= --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-matching-lines= --ignore-missing ' +
    '--ignore-space-at-eol --ignore-space-change --ignore-submodules= --indent-heuristic --inter-hunk-context= --invert-grep ' +
    '--irreversible-delete --ita-invisible-in-index --left-only --left-right --line-prefix= --log-size --mailmap --max-count= --max-parents= ' +
    '--merge --merges --min-parents= --minimal --name-only --name-status --no-abbrev-commit --no-color --no-color-moved --no-color-moved-ws ' +
    '--no-decorate --no-diff-merges --no-expand-tabs --no-ext-diff --no-indent-heuristic --no-mailmap --no-max-parents --no-merges ' +
    '--no-min-parents --no-notes --no-patch --no-prefix --no-relative --no-rename-empty --no-renames --no-standard-notes --no-textconv ' +
    '--no-walk= --not --notes= --numstat --oneline --output= --output-indicator-context= --output-indicator-new= --output-indicator-old= ' +
    '--parents --patch --patch-with-raw --patch-with-stat --patience --perl-regexp --pickaxe-all --pickaxe-regex --pretty= --raw --reflog ' +
    '--regexp-ignore-case --relative= --relative-date --remotes= --remove-empty --rename-empty --reverse --right-only --rotate-to= ' +
    '--shortstat --show-linear-break= --show-notes= --show-pulls --show-signature --simplify-by-decoration --simplify-merges --since= ' +
    '--since-as-filter= --single-worktree --skip= --skip-to= --source --sparse --src-prefix= --standard-notes --stat= --stdin --submodule= ' +
    '--summary --tags= --text --textconv --topo-order --unified= --until= --walk-reflogs --word-diff= --word-diff-regex= ' +
    '--ws-error-highlight= -a -b -B -C -D -E -F -g -G= -i -I= -l= -L= -M -n= -O= -p -P -R -s -S= -t -u -U= -w -W -X -z',
  'diff': '--abbrev= --anchored= --binary --break-rewrites= --check --color= --color-moved= --color-moved-ws= --color-words= ' +
    '--compact-summary --cumulative --diff-algorithm= --diff-filter= --dirstat-by-file= --dst-prefix= --exit-code --ext-diff --find-copies= ' +
    '--find-copies-harder --find-object= --find-renames= --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines ' +
    '--ignore-cr-at-eol --ignore-matching-lines= --ignore-space-at-eol --ignore-space-change --ignore-submodules= --indent-heuristic ' +
    '--inter-hunk-context= --irreversible-delete --ita-invisible-in-index --line-prefix= --minimal --name-only --name-status --no-color ' +
    '--no-color-moved --no-color-moved-ws --no-ext-diff --no-indent-heuristic --no-patch --no-prefix --no-relative --no-rename-empty ' +
    '--no-renames --no-textconv --numstat --output= --output-indicator-context= --output-indicator-new= --output-indicator-old= --patch ' +
    '--patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex --quiet --raw --relative= --rename-empty --rotate-to= ' +
    '--shortstat --skip-to= --src-prefix= --stat= --submodule= --summary --text --textconv --unified= --word-diff= --word-diff-regex= ' +
    '--ws-error-highlight= -0 -1 -a -b -B -C -D -G= -I= -l= -M -O= -p -R -s -S= -u -U= -w -W -X -z',
  'show': '--abbrev= --abbrev-commit --anchored= --binary --break-rewrites= --check --color= --color-moved= --color-moved-ws= --color-words= ' +
    '--combined-all-paths --compact-summary --cumulative --diff-algorithm= --diff-filter= --diff-merges= --dirstat-by-file= --dst-prefix= ' +
    '--encoding= --expand-tabs= --ext-diff --find-copies= --find-copies-harder --find-object= --find-renames= --format= --full-index ' +
    '--function-context --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-matching-lines= --ignore-space-at-eol ' +
    '--ignore-space-change --ignore-submodules= --indent-heuristic --inter-hunk-context= --irreversible-delete --ita-invisible-in-index ' +
    '--line-prefix= --minimal --name-only --name-status --no-abbrev-commit --no-color --no-color-moved --no-color-moved-ws --no-diff-merges ' +
    '--no-expand-tabs --no-ext-diff --no-indent-heuristic --no-notes --no-patch --no-prefix --no-relative --no-rename-empty --no-renames ' +
    '--no-standard-notes --no-textconv --notes= --numstat --oneline --output= --output-indicator-context= --output-indicator-new= ' +
    '--output-indicator-old= --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex --pretty= --raw --relative= ' +
    '--rename-empty --rotate-to= --shortstat --show-notes= --show-signature --skip-to= --src-prefix= --standard-notes --stat= --submodule= ' +
    '--summary --text --textconv --unified= --word-diff= --word-diff-regex= --ws-error-highlight= -a -b -B -C -D -G= -I= -l= -M -O= -p -R -s ' +
    '-S= -t -u -U= -w -W -X -z',
  'blame': '--abbrev= --color-by-age --color-lines --contents= --date= --encoding= --first-parent --ignore-rev= --ignore-revs-file= ' +
    '--incremental --line-porcelain --no-progress --porcelain --progress --reverse= --root --score-debug --show-email --show-name ' +
    '--show-number --show-stats -b -c -C -e -f -h -l -L= -M -n -p -s -S= -t -w',
  'annotate': '--color-by-age --color-lines --contents= --date= --encoding= --first-parent --ignore-rev= --ignore-revs-file= --incremental ' +
    '--line-porcelain --no-progress --porcelain --progress --reverse= --root --show-stats -b -C -h -l -L= -M -p -S= -t',
  'shortlog': '--after= --all --all-match --alternate-refs --ancestry-path= --author= --basic-regexp --before= --bisect --boundary ' +
    '--branches= --cherry --cherry-mark --cherry-pick --committer= --date= --dense --email --exclude= --exclude-first-parent-only ' +
    '--exclude-hidden= --extended-regexp --first-parent --fixed-strings --format= --full-history --glob= --grep= --grep-reflog= --group= ' +
    '--ignore-missing --invert-grep --left-only --max-count= --max-parents= --merge --merges --min-parents= --no-max-parents --no-merges ' +
    '--no-min-parents --not --numbered --perl-regexp --reflog --regexp-ignore-case --remotes= --remove-empty --right-only --show-pulls ' +
    '--simplify-by-decoration --simplify-merges --since= --since-as-filter= --single-worktree --skip= --sparse --stdin --summary --tags= ' +
    '--until= --walk-reflogs -c -e -E -F -g -i -n= -P -s -w',
  'describe': '--abbrev= --all --always --broken= --candidates= --contains --debug --dirty= --exact-match --exclude= --first-parent --long ' +
    '--match= --tags',
  'rev-parse': '--abbrev-ref= --absolute-git-dir --after= --all --before= --branches= --default= --disambiguate= --exclude= ' +
    '--exclude-hidden= --flags --git-common-dir --git-dir --git-path= --glob= --is-bare-repository --is-inside-git-dir --is-inside-work-tree ' +
    '--is-shallow-repository --keep-dashdash --local-env-vars --no-flags --no-revs --not --parseopt --path-format= --prefix= --quiet ' +
    '--remotes= --resolve-git-dir= --revs-only --shared-index-path --short= --show-cdup --show-object-format= --show-prefix ' +
    '--show-superproject-working-tree --show-toplevel --since= --sq --sq-quote --stop-at-non-option --stuck-long --symbolic ' +
    '--symbolic-full-name --tags= --until= --verify -q',
  'rev-list': '--abbrev-commit --after= --all --all-match --alternate-refs --ancestry-path= --author= --author-date-order --basic-regexp ' +
    '--before= --bisect --bisect-all --bisect-vars --boundary --branches= --cherry --cherry-mark --cherry-pick --children --commit-header ' +
    '--committer= --count --date= --date-order --dense --disk-usage= --do-walk --encoding= --exclude= --exclude-first-parent-only ' +
    '--exclude-hidden= --exclude-promisor-objects --expand-tabs= --extended-regexp --filter= --filter-print-omitted --filter-provided-objects ' +
    '--first-parent --fixed-strings --format= --full-history --glob= --graph --grep= --grep-reflog= --header --ignore-missing ' +
    '--in-commit-order --indexed-objects --invert-grep --left-only --left-right --max-age= --max-count= --max-parents= --merge --merges ' +
    '--min-age= --min-parents= --missing= --no-abbrev-commit --no-commit-header --no-expand-tabs --no-filter --no-max-parents --no-merges ' +
    '--no-min-parents --no-object-names --no-walk= --not --object-names --objects --objects-edge --objects-edge-aggressive --oneline ' +
    '--parents --perl-regexp --pretty= --progress= --quiet --reflog --regexp-ignore-case --relative-date --remotes= --remove-empty --reverse ' +
    '--right-only --show-linear-break= --show-pulls --show-signature --simplify-by-decoration --simplify-merges --since= --since-as-filter= ' +
    '--single-worktree --skip= --sparse --stdin --tags= --timestamp --topo-order --unpacked --until= --use-bitmap-index --walk-reflogs -E -F ' +
    '-g -i -n= -P',
  'ls-files': '--abbrev= --cached --debug --deduplicate --deleted --directory --eol --error-unmatch --exclude= --exclude-from= ' +
    '--exclude-per-directory= --exclude-standard --format= --full-name --ignored --killed --modified --no-empty-directory --others ' +
    '--recurse-submodules --sparse --stage --unmerged --with-tree= -c -d -f -i -k -m -o -s -t -u -v -x= -X= -z',
  'ls-tree': '--abbrev= --format= --full-name --full-tree --long --name-only --name-status --object-only -d -l -r -t -z',
  'cat-file': '--allow-unknown-type --batch= --batch-all-objects --batch-check= --batch-command= --buffer --filters --follow-symlinks ' +
    '--mailmap --no-mailmap --path= --textconv --unordered -e -p -s -t -z',
  'grep': '--after-context= --all-match --and --basic-regexp --before-context= --break --cached --color= --column --context= --count ' +
    '--exclude-standard --extended-regexp --files-with-matches --files-without-match --fixed-strings --full-name --function-context --heading ' +
    '--ignore-case --invert-match --line-number --max-count= --max-depth= --name-only --no-color --no-exclude-standard --no-index ' +
    '--no-recursive --no-textconv --not --null --only-matching --open-files-in-pager= --or --perl-regexp --quiet --recurse-submodules ' +
    '--recursive --show-function --text --textconv --threads= --untracked --word-regexp -a -A= -B= -c -C= -e -E -f= -F -G -h -H -i -I -l -L ' +
    '-m= -n -o -O -p -P -q -r -v -w -W -z',
  'help': '--all --config --developer-interfaces --guides --info --man --no-aliases --no-external-commands --user-interfaces --verbose --web ' +
    '-a -c -g -i -m -w',
  'count-objects': '--human-readable --verbose -H -v',
  'fsck': '--cache --connectivity-only --dangling --full --lost-found --name-objects --no-dangling --no-progress --no-reflogs --progress ' +
    '--root --strict --tags --unreachable --verbose',
  'check-ignore': '--no-index --non-matching --quiet --stdin --verbose -n -q -v -z',
  'check-attr': '--all --cached --stdin -a -z',
  'name-rev': '--all --always --annotate-stdin --exclude= --name-only --no-undefined --refs= --stdin --tags',
  'merge-base': '--all --fork-point --independent --is-ancestor --octopus -a',
  'for-each-ref': '--color= --contains= --count= --format= --ignore-case --merged= --no-contains= --no-merged= --perl --points-at= --python ' +
    '--shell --sort= --tcl',
  'show-ref': '--abbrev= --dereference --exclude-existing= --hash= --head --heads --quiet --tags --verify -d -q -s',
  'show-branch': '--all --color= --current --date-order --independent --list --merge-base --more= --no-color --no-name --reflog= --remotes ' +
    '--sha1-name --sparse --topics --topo-order -a -g -r',
  'diff-tree': '--abbrev= --abbrev-commit --always --anchored= --binary --break-rewrites= --cc --check --color= --color-moved= ' +
    '--color-moved-ws= --color-words= --combined-all-paths --compact-summary --cumulative --diff-algorithm= --diff-filter= --dirstat-by-file= ' +
    '--dst-prefix= --encoding= --exit-code --expand-tabs= --ext-diff --find-copies= --find-copies-harder --find-object= --find-renames= ' +
    '--format= --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol ' +
    '--ignore-matching-lines= --ignore-space-at-eol --ignore-space-change --ignore-submodules= --indent-heuristic --inter-hunk-context= ' +
    '--irreversible-delete --ita-invisible-in-index --line-prefix= --merge-base --minimal --name-only --name-status --no-abbrev-commit ' +
    '--no-color --no-color-moved --no-color-moved-ws --no-commit-id --no-expand-tabs --no-ext-diff --no-indent-heuristic --no-notes ' +
    '--no-patch --no-prefix --no-relative --no-rename-empty --no-renames --no-standard-notes --no-textconv --notes= --numstat --oneline ' +
    '--output= --output-indicator-context= --output-indicator-new= --output-indicator-old= --patch --patch-with-raw --patch-with-stat ' +
    '--patience --pickaxe-all --pickaxe-regex --pretty= --quiet --raw --relative= --rename-empty --root --rotate-to= --shortstat ' +
    '--show-notes= --show-signature --skip-to= --src-prefix= --standard-notes --stat= --stdin --submodule= --summary --text --textconv ' +
    '--unified= --word-diff= --word-diff-regex= --ws-error-highlight= -a -b -B -c -C -D -G= -I= -l= -m -M -O= -p -r -R -s -S= -t -u -U= -v -w ' +
    '-W -X -z',
  'diff-files': '--abbrev= --anchored= --binary --break-rewrites= --cc --check --color= --color-moved= --color-moved-ws= --color-words= ' +
    '--compact-summary --cumulative --diff-algorithm= --diff-filter= --dirstat-by-file= --dst-prefix= --exit-code --ext-diff --find-copies= ' +
    '--find-copies-harder --find-object= --find-renames= --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines ' +
    '--ignore-cr-at-eol --ignore-matching-lines= --ignore-space-at-eol --ignore-space-change --ignore-submodules= --indent-heuristic ' +
    '--inter-hunk-context= --irreversible-delete --ita-invisible-in-index --line-prefix= --minimal --name-only --name-status --no-color ' +
    '--no-color-moved --no-color-moved-ws --no-ext-diff --no-indent-heuristic --no-patch --no-prefix --no-relative --no-rename-empty ' +
    '--no-renames --no-textconv --numstat --output= --output-indicator-context= --output-indicator-new= --output-indicator-old= --patch ' +
    '--patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex --quiet --raw --relative= --rename-empty --rotate-to= ' +
    '--shortstat --skip-to= --src-prefix= --stat= --submodule= --summary --text --textconv --unified= --word-diff= --word-diff-regex= ' +
    '--ws-error-highlight= -1 -a -b -B -c -C -D -G= -I= -l= -M -O= -p -q -R -s -S= -u -U= -w -W -X -z',
  'diff-index': '--abbrev= --anchored= --binary --break-rewrites= --cached --check --color= --color-moved= --color-moved-ws= --color-words= ' +
    '--compact-summary --cumulative --diff-algorithm= --diff-filter= --dirstat-by-file= --dst-prefix= --exit-code --ext-diff --find-copies= ' +
    '--find-copies-harder --find-object= --find-renames= --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines ' +
    '--ignore-cr-at-eol --ignore-matching-lines= --ignore-space-at-eol --ignore-space-change --ignore-submodules= --indent-heuristic ' +
    '--inter-hunk-context= --irreversible-delete --ita-invisible-in-index --line-prefix= --merge-base --minimal --name-only --name-status ' +
    '--no-color --no-color-moved --no-color-moved-ws --no-ext-diff --no-indent-heuristic --no-patch --no-prefix --no-relative ' +
    '--no-rename-empty --no-renames --no-textconv --numstat --output= --output-indicator-context= --output-indicator-new= ' +
    '--output-indicator-old= --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex --quiet --raw --relative= ' +
    '--rename-empty --rotate-to= --shortstat --skip-to= --src-prefix= --stat= --submodule= --summary --text --textconv --unified= ' +
    '--word-diff= --word-diff-regex= --ws-error-highlight= -a -b -B -C -D -G= -I= -l= -m -M -O= -p -R -s -S= -u -U= -w -W -X -z',
  'verify-commit': '--raw --verbose -v',
  'verify-tag': '--raw --verbose -v',
  'cherry': '-v',
  'range-diff': '--creation-factor= --left-only --no-dual-color --no-notes --notes= --right-only',
  'branch': '--abbrev= --all --color= --column= --contains= --copy --create-reflog --delete --edit-description --force --format= ' +
    '--ignore-case --list --merged= --move --no-abbrev --no-color --no-column --no-contains= --no-merged= --no-track --points-at= --quiet ' +
    '--recurse-submodules --remotes --set-upstream --set-upstream-to= --show-current --sort= --track= --unset-upstream --verbose -a -c -C -d ' +
    '-D -f -i -l -m -M -q -r -t -u= -v -vv',
  'tag': '--annotate --cleanup= --color= --column= --contains= --create-reflog --delete --edit --file= --force --format= --ignore-case ' +
    '--list --local-user= --merged= --message= --no-column --no-contains= --no-merged= --no-sign --points-at= --sign --sort= --verify -a -d ' +
    '-e -f -F= -i -l -m= -n= -s -u= -v',
  'remote': '--verbose -v',
  'stash': '--all --include-untracked --index --keep-index --no-include-untracked --no-keep-index --only-untracked --patch ' +
    '--pathspec-file-nul --pathspec-from-file= --quiet --staged -a -k -p -q -S -u',
  'reflog': '--all --dry-run --expire= --expire-unreachable= --rewrite --single-worktree --stale-fix --updateref --verbose -n',
  'worktree': '--checkout --detach --dry-run --expire= --force --guess-remote --lock --no-checkout --no-guess-remote --no-track --porcelain ' +
    '--quiet --reason= --track --verbose -b= -B= -d -f -n -q -v -z',
  'config': '--add --blob= --bool --bool-or-int --default= --edit --expiry-date --file= --fixed-value --get --get-all --get-color= ' +
    '--get-colorbool= --get-regexp --get-urlmatch= --global --includes --int --list --local --name-only --no-includes --no-type --null --path ' +
    '--remove-section --rename-section --replace-all --show-origin --show-scope --system --type= --unset --unset-all --worktree -e -f= -l -z',
  'submodule': '--all --branch= --cached --checkout --depth --dissociate --files --force --init --jobs= --merge --name --no-fetch ' +
    '--no-recommend-shallow --no-single-branch --progress --quiet --rebase --recommend-shallow --recursive --reference= --remote ' +
    '--single-branch --summary-limit -b= -f -j= -n -N -q',
  'symbolic-ref': '--delete --no-recurse --quiet --recurse --short -d -m -q',
};
