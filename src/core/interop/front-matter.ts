import { isMap, isScalar, type Node as YamlNode, type Pair } from 'yaml';
import { parseYamlFile, problemAtStart, type Problem } from '../cores/problems.js';

/**
 * A Markdown file with YAML front matter: `---` on line 1, the YAML, `---`, then the body.
 * Lines are counted from 1 with the opening `---` as line 1, so a problem's FILE:LINE points
 * at the line an editor shows.
 */
export interface FrontMatterFile {
  file: string;
  /** The front matter as plain data (null when there is none or it is not a mapping). */
  data: Record<string, unknown> | null;
  body: string;
  problems: Problem[];
  /** Where a field is (`['tools', 2]`; a top-level key points at its key), for problems about it. */
  at(path: readonly PropertyKey[], message: string): Problem;
}

export function parseFrontMatter(file: string, text: string): FrontMatterFile {
  const src = text.replace(/^\uFEFF/, '');
  const lines = src.split(/\r?\n/);
  const none = (message: string | null): FrontMatterFile => ({ file, data: null, body: src, problems: message ? [problemAtStart(file, message)] : [], at: (_p, m) => problemAtStart(file, m) });
  if (lines[0]?.trim() !== '---') return none(null);
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end < 0) return none('the front matter opened with --- on line 1 is never closed with ---');
  // The opening line becomes empty so that YAML's line numbers are the file's.
  const yamlText = ['', ...lines.slice(1, end)].join('\n');
  const body = lines.slice(end + 1).join('\n').replace(/^\s*\n/, '');
  const y = parseYamlFile(file, yamlText);
  const problems = [...y.syntax];
  const contents = y.doc.contents as YamlNode | null;
  const pairs = isMap(contents) ? (contents.items as Pair<YamlNode, YamlNode>[]) : [];
  const at = (path: readonly PropertyKey[], message: string): Problem => {
    const pair = pairs.find((p) => isScalar(p.key) && String(p.key.value) === String(path[0]));
    if (path.length > 1) {
      const node = y.doc.getIn(path.map((k) => (typeof k === 'symbol' ? String(k) : k)), true) as YamlNode | undefined;
      if (node && (node as { range?: unknown }).range) return y.at(node, message);
    }
    return y.at(pair?.key ?? contents, message);
  };
  if (contents !== null && !isMap(contents)) {
    problems.push(y.at(contents, 'the front matter must be a mapping of fields (key: value)'));
    return { file, data: null, body, problems, at };
  }
  if (problems.length) return { file, data: null, body, problems, at };
  const data = (y.doc.toJS() ?? {}) as Record<string, unknown>;
  return { file, data, body, problems, at };
}
