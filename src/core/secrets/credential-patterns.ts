/** What a masked value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Spec 8: credentials are masked by their shape as well as by known values (redact.ts). What a
 * command prints (`cat .env`, `env`, a config file, a curl -v) reaches the model, the event
 * stream, the log and the transcript with these masked:
 *
 * 1. PEM private key blocks (`-----BEGIN … PRIVATE KEY-----` … `-----END … PRIVATE KEY-----`),
 *    also when the end is missing (cut output);
 * 2. `Authorization:` / `Proxy-Authorization:` header values, and `Bearer …` / `Basic …` tokens;
 * 3. JSON Web Tokens (`eyJ….eyJ….…`);
 * 4. AWS access key ids (`AKIA…`, `ASIA…`, 20 characters);
 * 5. provider token prefixes: GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`),
 *    GitLab (`glpat-`), Slack (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`), OpenAI and Anthropic
 *    (`sk-…`, `sk-proj-…`, `sk-ant-…`), Google API keys (`AIza…`), Stripe (`sk_live_`, `rk_live_`),
 *    npm (`npm_`), Hugging Face (`hf_`);
 * 6. the password in a URL (`scheme://user:password@host`);
 * 7. assignments to secret-looking names (`DB_PASSWORD=…`, `api_key: …`, `"token": "…"`,
 *    `--password=…`, `export AWS_SECRET_ACCESS_KEY=…`): the value, when it is a literal (quoted, or
 *    a bare word that is not a variable reference, a type or a dotted name such as
 *    `process.env.API_KEY`) of at least 4 characters.
 */

const PEM = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g;
const AUTH_HEADER = /\b((?:Proxy-)?Authorization[ \t]*[:=][ \t]*)(?:(Bearer|Basic|Token|Digest|Negotiate|AWS4-HMAC-SHA256)[ \t]+)?([^\s"',]+(?:[ \t]*,[ \t]*[A-Za-z]+=[^\s,]+)*)/gi;
const BEARER = /\b(Bearer|Basic)([ \t]+)([A-Za-z0-9._~+/=-]{8,})/g;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const AWS_KEY_ID = /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g;
const TOKEN_PREFIXES = /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}|(?:sk|rk)_live_[A-Za-z0-9]{16,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,})/g;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+:)([^\s/?#@]+)@/gi;

/** A name that holds a secret, after camelCase and dashes are written as SNAKE_CASE. */
const SECRET_NAME = /PASSWORD|PASSWD|(^|_)PWD$|PASSPHRASE|SECRET|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|(^|_)AUTH($|_)|AUTHORIZATION/;
/** `STRIPE_KEY=…`: a name ending in `_KEY` holds a secret when it is written like an environment variable. */
const ENV_KEY_NAME = /^[A-Z][A-Z0-9_]*_KEY$/;
const isSecretName = (name: string) => ENV_KEY_NAME.test(name) || SECRET_NAME.test(snake(name));
const ASSIGNMENT = /(["']?)\b([A-Za-z_][A-Za-z0-9_.-]{1,60})\1([ \t]*(?:=|:(?!\/\/))[ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"'`,;)}\]]+)/g;
/** Bare values that are not credentials: references, types, placeholders, dotted names, calls. */
const NOT_A_LITERAL = /^(?:[$%<{[*]|\[redacted|(?:null|none|nil|true|false|undefined|string|str|number|int|bool|boolean|any|unknown|optional|required)$|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|[A-Za-z_$][\w$.]*\()/i;

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-.]/g, '_').toUpperCase();
}

function maskAssignment(whole: string, quote: string, name: string, sep: string, value: string): string {
  if (!isSecretName(name)) return whole;
  const quoted = /^["']/.test(value);
  const inner = quoted ? value.slice(1, -1) : value;
  if (inner.length < 4 || inner.startsWith('[redacted') || /^(?:Bearer|Basic|Token|Digest|Negotiate)$/i.test(inner)) return whole;
  if (quoted ? /^\$[{(]|^\$[A-Z_]+$/.test(inner) : NOT_A_LITERAL.test(inner)) return whole;
  return `${quote}${name}${quote}${sep}${quoted ? `${value[0]}${REDACTED}${value[0]}` : REDACTED}`;
}

/**
 * Texts masked lately, with their masked form: the same text is masked many times on its way out
 * (a tool result as an event, then in the transcript line, again at each routing hop it passes;
 * every object key of every event), and eight passes over a short string cost more than a lookup
 * (issue 27). Masking is a function of the text alone, so a remembered answer is the answer.
 * Bounded by characters held; emptied when full.
 */
const memo = new Map<string, string>();
let memoChars = 0;
const MEMO_CHARS = 1 << 20;
const MEMO_TEXT_CHARS = 1 << 16;

/** `text` with every credential-shaped value masked (the list above). */
export function maskCredentials(text: string): string {
  if (!text) return text;
  const known = memo.get(text);
  if (known !== undefined) return known;
  const masked = maskShapes(text);
  if (text.length <= MEMO_TEXT_CHARS) {
    const chars = text.length + (masked === text ? 0 : masked.length);
    if (memoChars + chars > MEMO_CHARS) {
      memo.clear();
      memoChars = 0;
    }
    memo.set(text, masked);
    memoChars += chars;
  }
  return masked;
}

function maskShapes(text: string): string {
  return text
    .replace(PEM, `[redacted private key]`)
    .replace(AUTH_HEADER, (whole, head: string, scheme: string | undefined, value: string) => (value.startsWith('[redacted') ? whole : `${head}${scheme ? `${scheme} ` : ''}${REDACTED}`))
    .replace(BEARER, (whole, scheme: string, space: string, value: string) => (value.startsWith('[redacted') ? whole : `${scheme}${space}${REDACTED}`))
    .replace(JWT, REDACTED)
    .replace(AWS_KEY_ID, REDACTED)
    .replace(TOKEN_PREFIXES, REDACTED)
    .replace(URL_PASSWORD, `$1${REDACTED}@`)
    .replace(ASSIGNMENT, maskAssignment);
}

/**
 * Where a stream of text (an answer arriving delta by delta) may be cut so that masking each part
 * alone masks what masking it whole would: after the last line break, unless a private key block
 * is open; within the last line, after its last space, unless the line so far holds the start of
 * a credential that can run over spaces (an assignment, an Authorization header, a Bearer token).
 */
export function safeCut(text: string): number {
  const openPem = text.lastIndexOf('-----BEGIN ');
  let pemEnd = 0;
  if (openPem >= 0) {
    const end = /-----END [A-Z0-9 ]*-----/.exec(text.slice(openPem));
    if (!end) return openPem;
    pemEnd = openPem + end.index + end[0].length;
  }
  // Never inside a closed block either: the cut goes after its END line at least.
  return Math.max(pemEnd, lineCut(text));
}

function lineCut(text: string): number {
  const lineStart = text.lastIndexOf('\n') + 1;
  const line = text.slice(lineStart);
  if (/\b(?:Bearer|Basic|Authorization)\b/i.test(line) || [...line.matchAll(/([A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*[=:]/g)].some((m) => isSecretName(m[1]!))) return lineStart;
  const space = Math.max(line.lastIndexOf(' '), line.lastIndexOf('\t'));
  return space >= 0 ? lineStart + space + 1 : lineStart;
}
