/** What a loaded plugin says about itself. */
export interface PluginShape {
  name: string;
  slot: string;
  functions: string[];
}

export type FailureReason = 'error' | 'timeout' | 'malformed';

/** A plugin call that did not produce a usable value. */
export class PluginCallError extends Error {
  constructor(readonly reason: FailureReason, readonly detail: string) {
    super(detail);
  }
}
