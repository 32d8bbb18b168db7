import type { PepeConfig } from '../config/schema.js';

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

/** A copy of `env` without secrets; `secrets.expose_env` brings named variables back. */
export function scrubEnv(env: NodeJS.ProcessEnv, config: PepeConfig = {}): Record<string, string> {
  const expose = new Set(config.secrets?.expose_env ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!expose.has(name) && isSecretName(name, config)) continue;
    out[name] = value;
  }
  return out;
}

/** The values that must never be written to a transcript or a log. */
export function secretValues(env: NodeJS.ProcessEnv, config: PepeConfig = {}): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= 8 && isSecretName(name, config)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}
