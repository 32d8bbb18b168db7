import { basename } from 'node:path';

/**
 * Files that usually hold credentials. Reading inside the workspace is free, so a run could read
 * the project's `.env` and put its values in a `web_search` query, unasked; once a run has read
 * (or run a command naming) one of these, outbound channels ask, like after outside content.
 * Judged by name: a command that reads such a file without naming it (`grep -r KEY .`) is not seen.
 */
const SECRET_FILE =
  /^(\.env(\..+)?|\.envrc|\.flaskenv|.+\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|tfvars|tfstate)|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|\.npmrc|\.yarnrc(\.yml)?|\.pypirc|\.netrc|\.pgpass|\.my\.cnf|\.git-credentials|\.htpasswd|\.vault-token|credentials(\.json|\.ya?ml)?|secrets?(\.[a-z]+)?|service[-_]account.*\.json)$/i;

export function looksLikeSecretFile(path: string): boolean {
  return SECRET_FILE.test(basename(path.replace(/\/+$/, '')));
}
