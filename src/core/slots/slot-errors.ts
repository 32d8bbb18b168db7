import { PepeError } from '../errors.js';
import type { FailureReason } from '../plugins/plugin-worker.js';

/** Why a plugin occupant did not answer one call. */
export interface Fallback {
  reason: FailureReason;
  detail: string;
}

/** Spec 3.3: a failed sandbox plugin refuses the command instead of running it unsandboxed. */
export class SandboxRefusedError extends PepeError {
  constructor(readonly occupant: string, readonly fallback: Fallback, readonly durationMs: number) {
    super(`the sandbox "${occupant}" failed (${fallback.reason}: ${fallback.detail}); the command was refused, not run outside the sandbox`);
  }
}

/** Spec 3.3: a harness plugin's failure is the turn's error; it is never re-run by the built-in. */
export class HarnessFailedError extends PepeError {
  constructor(readonly occupant: string, readonly fallback: Fallback) {
    super(`the harness "${occupant}" failed (${fallback.reason}): ${fallback.detail}`);
  }
}
