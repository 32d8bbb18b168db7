/**
 * Errors a person can cause carry a one-line message that says what to do (spec 9.1).
 * `exitCode` follows the CLI's convention: 2 for usage/configuration mistakes, 1 for runtime failures.
 */
export class PepeError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 = 1, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A mistake in how a command was called, or a request the configuration cannot satisfy. */
export class UsageError extends PepeError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** config.json is unreadable or invalid; nothing was written. */
export class ConfigError extends PepeError {
  constructor(message: string, readonly file: string, readonly problems: string[] = [message]) {
    super(message, 2);
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
