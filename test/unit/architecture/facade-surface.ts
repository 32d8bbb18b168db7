/**
 * The facade's surface for the hosts (docs/architecture.md): src/extension and src/cli call the
 * Pepe facade's methods and read its data, and of its service fields they use only the ones named
 * here, and only the operations listed for each. The checker reads the host files with the
 * TypeScript checker, so a reach-past is found whatever the variable holding the facade is called.
 */
import ts from 'typescript';
import { join, relative } from 'node:path';

/** Fields a host may read as they are (plain data, or the facade's configuration as it applies). */
const DATA = ['paths', 'env', 'workspace', 'config', 'configSnapshot', 'workspaceFilesAllowed'] as const;

/** The service fields a host may use, each with the operations it may call ('whole': passed on as it is). */
export const HOST_SERVICES: Record<string, readonly string[]> = {
  sessions: ['whole', 'list', 'load', 'exists', 'rename', 'delete'],
  usage: ['whole', 'all', 'projectUsage', 'spend'],
  pending: ['list', 'deny'],
  mcp: ['add', 'remove', 'check', 'describe', 'grant', 'hostToolNames', 'restart', 'restriction', 'setHostTools', 'status', 'stop', 'toolRows'],
  grants: ['list', 'revoke', 'revokeScope', 'clear'],
  workspaceTrust: ['list', 'accept', 'revoke'],
  interop: ['prompts', 'expand'],
  heartbeat: ['runDue'],
  log: ['onEntry'],
};

/** A place where a host file uses the facade beyond its surface: `file: pepe.member[.operation]`. */
export type ReachPast = string;

/**
 * Every use of a Pepe member beyond the surface in the host files of the program rooted at
 * `root` (its tsconfig.json): a service field not named in HOST_SERVICES, or an operation not
 * listed for it. Methods of the facade are its surface by definition.
 */
export function reachPasts(root: string, services: Record<string, readonly string[]> = HOST_SERVICES): ReachPast[] {
  const cfg = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!cfg) throw new Error(`no tsconfig.json in ${root}`);
  const program = ts.createProgram(cfg.fileNames, cfg.options);
  const checker = program.getTypeChecker();
  const isFacade = (t: ts.Type) => {
    const sym = t.getSymbol();
    return sym?.getName() === 'Pepe' && !!sym.declarations?.some((d) => d.getSourceFile().fileName.endsWith('/src/core/pepe.ts'));
  };
  const out = new Set<ReachPast>();
  for (const sf of program.getSourceFiles()) {
    const file = relative(root, sf.fileName);
    if (!/^src\/(extension|cli)\//.test(file)) continue;
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAccessExpression(n) && isFacade(checker.getTypeAtLocation(n.expression))) {
        const member = n.name.text;
        const decl = checker.getSymbolAtLocation(n.name)?.declarations?.[0];
        const isMethod = !!decl && (ts.isMethodDeclaration(decl) || ts.isGetAccessorDeclaration(decl) || ts.isSetAccessorDeclaration(decl));
        if (!isMethod || (DATA as readonly string[]).includes(member)) {
          const allowed = services[member];
          const op = ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n ? n.parent.name.text : 'whole';
          if ((DATA as readonly string[]).includes(member)) {
            // plain data: read as it is
          } else if (!allowed) out.add(`${file}: pepe.${member}${op === 'whole' ? '' : `.${op}`} (not a service of the surface)`);
          else if (!allowed.includes(op)) out.add(`${file}: pepe.${member}${op === 'whole' ? '' : `.${op}`} (not an operation of the surface)`);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return [...out].sort();
}
