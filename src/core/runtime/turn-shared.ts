import type { TurnSharedCache } from '../events.js';

/**
 * What the hops of one top-level turn share (issue 27): a send_to_agent callee is prepared while
 * its caller's turn is still running, in the same workspace, so finding the project root and the
 * instruction files and skills again for every hop gives the same answer. Only discovery is
 * shared; each hop still gets its own session, barrier, grants, taint and event masking.
 *
 * Also shared: the instruction files a hop's file tools look for as they work (a folder's
 * AGENTS.md, found or missing), so reading twenty files of one folder looks for its AGENTS.md once.
 *
 * Staleness: every tool call other than a routing one or a built-in that only reads (a write or
 * edit, bash, an MCP tool…) may change the workspace, so the cache is emptied when one starts and
 * again when it ends. A hop therefore sees the workspace as it was after the last such call of the
 * turn: an AGENTS.md or a skill the caller wrote before it consulted another agent, or before it
 * read a file in that folder, is found. A file changed by something outside Pepe while the turn
 * only reads and consults is picked up at the turn's next such call or from the next turn on
 * (every top-level turn starts with an empty cache).
 */
export class TurnShared implements TurnSharedCache {
  private readonly memo = new Map<string, Promise<unknown>>();

  once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let found = this.memo.get(key) as Promise<T> | undefined;
    if (!found) {
      const made = make();
      found = made;
      this.memo.set(key, made);
      // A failure is not remembered: the next hop tries again.
      made.catch(() => this.memo.get(key) === made && this.memo.delete(key));
    }
    return found;
  }

  changed(): void {
    this.memo.clear();
  }
}
