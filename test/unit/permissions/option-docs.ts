import { spawnSync } from 'node:child_process';

/**
 * Reads the options a program documents, from the help text or the man page of the version
 * installed on this machine, for the option-table test: every documented option must be
 * classified by the barrier's tables (or the test records why it is skipped).
 */

export interface DocOption {
  /** As documented: `-x`, `--long`. */
  name: string;
  /** The documentation shows it taking a value. */
  value: boolean;
}

/** stdout and stderr of a command, or null when it cannot be run. */
export function textOf(program: string, args: readonly string[], env: Record<string, string> = {}): string | null {
  const r = spawnSync(program, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', MANWIDTH: '200', MANPAGER: 'cat', PAGER: 'cat', ...env }, timeout: 20_000 });
  if (r.error) return null;
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  return text.trim() === '' ? null : text;
}

/** A man page as plain text (no overstrike), or null when it is not installed. */
export function manPage(page: string): string | null {
  const text = textOf('man', ['-P', 'cat', page]);
  if (text === null || /No manual entry/.test(text)) return null;
  return text.replace(/.\u0008/g, '');
}

/** BSD-style usage lines (`[-46Aa] [-B bind_interface]`), as ssh, scp and sftp print them. */
export function fromUsage(text: string): DocOption[] {
  const out: DocOption[] = [];
  for (const m of text.matchAll(/\[-([A-Za-z0-9]+)\]/g)) for (const ch of m[1]!) out.push({ name: `-${ch}`, value: false });
  for (const m of text.matchAll(/\[-([A-Za-z0-9]) [^\]]+\]/g)) out.push({ name: `-${m[1]}`, value: true });
  return dedupe(out);
}

/**
 * GNU-style help or a man page's option list: lines that start (after indentation) with an
 * option, several spellings separated by commas (`-a, --all`, `-e,  --execute=COMMAND`,
 * `--alt-svc <file name>`, `-n <number>`, `--abbrev[=<n>]`).
 */
export function fromOptionLines(text: string, indent = /^\s{1,12}(?=-)/): DocOption[] {
  const out: DocOption[] = [];
  for (const line of text.split('\n')) {
    if (!indent.test(line)) continue;
    const head = line.replace(indent, '');
    for (const part of head.split(/,\s+(?=-)/)) {
      const m = /^(--?(?:\[no-\])?[A-Za-z0-9][A-Za-z0-9_-]*)(\[?=|\s<|\s[A-Z]{2,}\b|\s\[|<)?/.exec(part);
      if (!m && /^-<[^>]*>$/.test(part.trim())) continue; // git's `-<number>, -n <number>`
      if (!m) break;
      const name = m[1]!.replace('[no-]', '');
      out.push({ name, value: !!m[2] });
      if (m[1]!.includes('[no-]')) out.push({ name: name.replace(/^--/, '--no-'), value: false });
      // The next spelling must follow right after this one (`-a, --all`), not in the description.
      if (!/^--?[A-Za-z0-9][^\s,]*(\s<[^>]*>|\s[A-Z]+)?,\s+-/.test(part + ', -')) break;
    }
  }
  return dedupe(out);
}

function dedupe(list: DocOption[]): DocOption[] {
  const seen = new Map<string, DocOption>();
  for (const o of list) {
    const had = seen.get(o.name);
    if (!had) seen.set(o.name, o);
    else if (o.value) had.value = true;
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}
