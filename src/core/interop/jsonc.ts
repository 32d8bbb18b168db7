/**
 * JSON with comments and trailing commas (VS Code's settings files): the comments and trailing
 * commas are blanked out (line numbers kept), then JSON.parse reads the rest.
 */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 1 + 4096))) {
      // A trailing comma (followed only by whitespace and a closing bracket).
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out.replace(/^\uFEFF/, ''));
}
