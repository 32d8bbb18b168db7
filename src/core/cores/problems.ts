import { relative } from 'node:path';
import { isAbsolute } from 'node:path';
import { LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { PepeError } from '../errors.js';

/** One thing wrong with an agent core, where it is (1-based line and column). */
export interface Problem {
  /** Absolute path of the file the problem is in. */
  file: string;
  line: number;
  column: number;
  message: string;
  /** Where the offending YAML node ends (1-based), when known: for editors that underline a range. */
  endLine?: number;
  endColumn?: number;
}

/** `file:line:column: message`; `file` relative to `base` when given and the file lies under it. */
export function formatProblem(p: Problem, base?: string): string {
  let file = p.file;
  if (base) {
    const rel = relative(base, p.file);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) file = rel;
  }
  return `${file}:${p.line}:${p.column}: ${p.message}`;
}

/** Thrown by `loadCore` when the core has problems: carries every one of them. */
export class CoreLoadError extends PepeError {
  constructor(readonly dir: string, readonly problems: Problem[]) {
    super(
      `agent core ${dir} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`,
      2,
    );
  }
}

/** A parsed YAML file that can tell where each of its nodes is. */
export interface YamlFile {
  file: string;
  doc: Document.Parsed;
  /** Problems of the YAML syntax itself (the document may still be partly usable). */
  syntax: Problem[];
  at(node: YamlNode | null | undefined, message: string): Problem;
}

export function parseYamlFile(file: string, text: string): YamlFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number, message: string, end?: number): Problem => {
    const pos = lines.linePos(offset);
    const problem: Problem = { file, line: pos.line, column: pos.col, message };
    if (end !== undefined && end > offset) {
      const last = lines.linePos(end);
      problem.endLine = last.line;
      problem.endColumn = last.col;
    }
    return problem;
  };
  const syntax = [...doc.errors, ...doc.warnings].map((e) => at(e.pos[0], `YAML: ${e.message.split('\n')[0]}`));
  return {
    file,
    doc,
    syntax,
    at: (node, message) => at(node?.range?.[0] ?? 0, message, node?.range?.[1]),
  };
}

export function problemAtStart(file: string, message: string): Problem {
  return { file, line: 1, column: 1, message };
}

export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}
