import { isAbsolute, relative, resolve } from 'node:path';
import type { PepeConfig } from '../config/schema.js';
import { redactText } from './redact.js';
import { sameList } from './redactor-cache.js';

/**
 * Spec 8: the agent's shell never inherits Pepe's secrets. A variable is removed when a model's
 * `api_key_env` names it or its name looks like a secret, unless `secrets.expose_env` lists it.
 */
const SECRET_NAME_PATTERNS: RegExp[] = [
  /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PAT)$/i,
  /PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|SECRET|PRIVATE_KEY|APIKEY|API_KEY|ACCESS_KEY|AUTH_TOKEN|SESSION_TOKEN/i,
];

/** Cloud and provider credentials whose names the patterns above would miss. */
const KNOWN_SECRET_NAMES = new Set([
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_SECURITY_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AZURE_CLIENT_SECRET',
  'AZURE_CLIENT_CERTIFICATE_PATH',
  'ARM_CLIENT_SECRET',
  'DATABASE_URL',
  'NPM_CONFIG__AUTH',
  'NODE_AUTH_TOKEN',
  'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN',
  'SSH_AUTH_SOCK',
  'DOCKER_AUTH_CONFIG',
  'KUBECONFIG',
  'VAULT_TOKEN',
]);

export function apiKeyEnvNames(config: PepeConfig): string[] {
  return Object.values(config.models ?? {})
    .map((m) => m.api_key_env)
    .filter((n): n is string => typeof n === 'string');
}

export function isSecretName(name: string, config: PepeConfig = {}): boolean {
  if (apiKeyEnvNames(config).includes(name)) return true;
  if (KNOWN_SECRET_NAMES.has(name.toUpperCase())) return true;
  return SECRET_NAME_PATTERNS.some((re) => re.test(name));
}

/**
 * Spec 8: what a command (or a plugin) may see of Pepe's environment: these names, any `LC_*`, and
 * what `secrets.expose_env` lists. Everything else stays out, whatever its name: an allow-list,
 * not a guess at which names hold secrets.
 */
export const ENV_ALLOW: readonly string[] = ['PATH', 'HOME', 'LANG', 'TERM', 'USER', 'SHELL', 'TMPDIR'];
const ENV_ALLOW_PATTERN = /^LC_[A-Z]+$/;

/** The allow-list environment for commands (spec 8); credentials inside URLs are removed too. */
export function allowListEnv(env: NodeJS.ProcessEnv, config: PepeConfig = {}): Record<string, string> {
  const expose = new Set(config.secrets?.expose_env ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!ENV_ALLOW.includes(name) && !ENV_ALLOW_PATTERN.test(name) && !expose.has(name)) continue;
    out[name] = withoutUrlCredentials(value);
  }
  return out;
}

/**
 * The environment every command run through the sandbox slot gets. Kept under its old name for
 * its callers; it is the allow-list now (`allowListEnv`), which is stricter than removing the
 * names that look like secrets, so a wrapper or a sandbox plugin still gets at least that.
 */
export function scrubEnv(env: NodeJS.ProcessEnv, config: PepeConfig = {}): Record<string, string> {
  return allowListEnv(env, config);
}

/**
 * `https://user:KEY@host/…` → `https://host/…`: the user part of any URL in the value is dropped
 * (tokens are often passed as the user name alone). A credential meant for commands is exposed by
 * its own variable name instead.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#]*)@/gi;

export function withoutUrlCredentials(value: string): string {
  return value.replace(URL_USERINFO, '$1');
}

/** The variable an MCP server's `${input:…}` value lives in starts so (interop/external-mcp.ts). */
export const MCP_INPUT_PREFIX = 'PEPE_MCP_INPUT_';

/**
 * The values that must never be written to a transcript or a log, nor reach the model or a screen:
 * those of variables whose names look like secrets or that a model's `api_key_env` names (8
 * characters or more), keys inside URLs, and the values given to MCP servers' inputs.
 */
export function secretValues(env: NodeJS.ProcessEnv, config: PepeConfig = {}): string[] {
  // Asked for every transcript line, log line and tool result: the answer for the same variables
  // and the same api_key_env names is the one given last (issue 27). Comparing the names and
  // values costs a small part of finding the values again (regular expressions per variable).
  const names = Object.keys(env);
  const keyNames = apiKeyEnvNames(config);
  const last = lastSecretValues;
  if (last && sameVariables(last, names, env) && sameList(last.keyNames, keyNames)) return [...last.secrets];
  const values = secretValuesOf(names, env, config);
  lastSecretValues = { names, values: names.map((n) => env[n]), keyNames, secrets: values };
  return [...values];
}

let lastSecretValues: { names: string[]; values: (string | undefined)[]; keyNames: string[]; secrets: string[] } | null = null;

function sameVariables(last: { names: string[]; values: (string | undefined)[] }, names: string[], env: NodeJS.ProcessEnv): boolean {
  if (last.names.length !== names.length) return false;
  for (let i = 0; i < names.length; i++) if (last.names[i] !== names[i] || last.values[i] !== env[names[i]!]) return false;
  return true;
}

function secretValuesOf(names: readonly string[], env: NodeJS.ProcessEnv, config: PepeConfig): string[] {
  const values = new Set<string>();
  for (const name of names) {
    const value = env[name];
    if (!value) continue;
    // What the person gave an MCP server for an `${input:…}` is a secret whatever its name.
    if (name.startsWith(MCP_INPUT_PREFIX)) values.add(value);
    if (value.length >= 8 && isSecretName(name, config)) values.add(value);
    // A key inside a URL (https://user:KEY@host) is a secret whatever the variable is called.
    for (const m of value.matchAll(URL_USERINFO)) {
      for (const part of [m[2]!, ...m[2]!.split(':')]) if (part.length >= 8) values.add(part);
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** Masks every spelling of the secrets (as is, JSON-escaped, percent-encoded): see redact.ts. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactText(text, secrets);
}

/**
 * PATH for a command: without empty or relative entries and without folders inside the workspace
 * (for example `node_modules/.bin` when Pepe was started from an npm script). The barrier judges
 * `ls` harmless by its name; a workspace must not be able to decide which program that name runs.
 */
export function commandSearchPath(path: string | undefined, workspace: string): string | undefined {
  if (path === undefined) return undefined;
  const root = resolve(workspace);
  return path
    .split(':')
    .filter((entry) => entry !== '' && isAbsolute(entry))
    .filter((entry) => {
      const rel = relative(root, resolve(entry));
      return rel.startsWith('..') || isAbsolute(rel);
    })
    .join(':');
}
