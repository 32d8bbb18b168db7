/**
 * The facade's surface for the hosts (docs/architecture.md): every file of src/ outside src/core
 * uses the Pepe facade through its methods and its read-only data, never through the parts behind
 * it. The parts are protected (core/facade/wiring.ts), so the compiler refuses `pepe.mcp`; this
 * checker also finds the ways around that the compiler lets through: `pepe['mcp']` (TypeScript
 * allows bracket access to protected members), destructuring the facade, and casting it to
 * something else, and a type that names a part (`Pepe['mcp']`). It reads the files with the TypeScript checker, so a use is found whatever the
 * variable holding the facade is called.
 */
import ts from 'typescript';
import { join, relative } from 'node:path';

/** What a host may read besides the methods: the configuration as it applies, and plain data. */
export const DATA: readonly string[] = ['paths', 'env', 'workspace', 'config', 'configSnapshot', 'workspaceFilesAllowed'];

/** A place where a host file uses the facade beyond its surface: `file: what (why)`. */
export type ReachPast = string;

/**
 * Every use of the facade beyond its surface in the host files of the program rooted at `root`
 * (its tsconfig.json): a member that is neither a method nor in DATA, any element access on the
 * facade, a member destructured from it that is not in DATA, and a cast of the facade to another type.
 */
export function reachPasts(root: string): ReachPast[] {
  const cfg = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!cfg) throw new Error(`no tsconfig.json in ${root}`);
  const program = ts.createProgram(cfg.fileNames, cfg.options);
  const checker = program.getTypeChecker();
  const isFacade = (t: ts.Type) => {
    const sym = t.getSymbol();
    return sym?.getName() === 'Pepe' && !!sym.declarations?.some((d) => d.getSourceFile().fileName.endsWith('/src/core/pepe.ts'));
  };
  const isMethod = (t: ts.Type, name: string) => {
    const decl = t.getProperty(name)?.declarations?.[0];
    return !!decl && ts.isMethodDeclaration(decl);
  };
  const allowed = (t: ts.Type, name: string) => DATA.includes(name) || isMethod(t, name);
  const out = new Set<ReachPast>();
  for (const sf of program.getSourceFiles()) {
    const file = relative(root, sf.fileName);
    if (!file.startsWith('src/') || file.startsWith('src/core/')) continue;
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAccessExpression(n)) {
        const t = checker.getTypeAtLocation(n.expression);
        if (isFacade(t) && !allowed(t, n.name.text)) {
          const op = ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n ? `.${n.parent.name.text}` : '';
          out.add(`${file}: pepe.${n.name.text}${op} (not a method of the facade)`);
        }
      } else if (ts.isElementAccessExpression(n) && isFacade(checker.getTypeAtLocation(n.expression))) {
        out.add(`${file}: pepe[${n.argumentExpression.getText(sf)}] (element access on the facade)`);
      } else if (ts.isObjectBindingPattern(n)) {
        const t = checker.getTypeAtLocation(n);
        if (isFacade(t)) {
          for (const el of n.elements) {
            const key = el.propertyName ?? el.name;
            const name = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : key.getText(sf);
            if (el.dotDotDotToken || !DATA.includes(name)) out.add(`${file}: { ${el.dotDotDotToken ? '...' : ''}${name} } = pepe (destructured from the facade)`);
          }
        }
      } else if (ts.isIndexedAccessTypeNode(n) && isFacade(checker.getTypeFromTypeNode(n.objectType))) {
        // \`Pepe['store']\`: TypeScript lets a type name a protected member, which hands a host the
        // part's type to build a way round with.
        const t = checker.getTypeFromTypeNode(n.objectType);
        const index = n.indexType;
        const name = ts.isLiteralTypeNode(index) && ts.isStringLiteral(index.literal) ? index.literal.text : undefined;
        if (name === undefined || !allowed(t, name)) out.add(`${file}: Pepe[${index.getText(sf)}] (a type named from the facade's parts)`);
      } else if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && isFacade(checker.getTypeAtLocation(n.expression)) && !isFacade(checker.getTypeAtLocation(n))) {
        out.add(`${file}: pepe as ${n.type.getText(sf)} (the facade cast to another type)`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return [...out].sort();
}
