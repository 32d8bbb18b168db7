import { statSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import * as z from '../zod.js';
import { UsageError } from '../errors.js';
import { Redactor } from '../secrets/redact.js';
import type { ToolFacts } from '../tools/tool.js';
import { riskKindsOf, scopedEntry } from './grant-scope.js';
import { RISK_KINDS, type RiskHint } from './risk-kinds.js';
import { compareCodeUnits } from '../code-unit-order.js';
import { lazySchema } from '../lazy-schema.js';
import { randomHex } from '../random-id.js';
import { withFileLock } from '../file-lock.js';

/**
 * "No human, no surprises" (spec 5.4): a gated call refused because nobody could be asked is
 * parked here, one JSON file per approval in `$PEPE_HOME/approvals/<id>.json`, until a person
 * approves or denies it (`pepe approvals …`, or VS Code) or it expires after 30 minutes. The
 * runtime later takes the approved ones, runs them and reports the result in a follow-up turn.
 *
 * Files are written atomically and changed under a per-file lock, so the CLI approving while the
 * extension takes approved calls never runs a call twice or loses a decision.
 */

export const PENDING_TTL_MS = 30 * 60 * 1000;

const ID = /^[0-9a-f]{8}$/;
const ID_FILE = /^([0-9a-f]{8})\.json$/;

const StoredApproval = lazySchema(() =>
  z.looseObject({
    id: z.string().check(z.regex(ID)),
    agent: z.string(),
    chain: z.array(z.string()),
    tool: z.string(),
    args: z.unknown(),
    cwd: z.string(),
    workspace: z.optional(z.string()),
    sessionId: z.optional(z.string()),
    toolCallId: z.optional(z.string()),
    createdAt: z.string(),
    expiresAt: z.string(),
    status: z.enum(['pending', 'approved', 'denied', 'expired']),
    parkedBecause: z.enum(['no_person', 'prompt_failed']),
    summary: z.optional(z.string()),
    why: z.optional(z.string()),
    riskHints: z.optional(z.array(z.object({ kind: z.enum(RISK_KINDS), fragment: z.string(), detail: z.optional(z.string()) }))),
    programs: z.optional(z.array(z.string())),
    facts: z.optional(
      z.object({
        cwd: z.optional(z.string()),
        // Loose: what a replay compares is the real path and the access; other fields may grow.
        paths: z.optional(z.array(z.looseObject({ requested: z.string(), real: z.string(), access: z.enum(['read', 'write']) }))),
      }),
    ),
    always: z.optional(z.boolean()),
    reason: z.optional(z.string()),
    decidedAt: z.optional(z.string()),
    deliveredAt: z.optional(z.string()),
  }),
);
type StoredApproval = z.infer<typeof StoredApproval>;

export interface ParkedCall {
  id: string;
  agent: string;
  chain: string[];
  tool: string;
  args: unknown;
  cwd: string;
  /**
   * The workspace the call was made in: its relative paths' root and its command's writable root.
   * A replay runs there, wherever it was approved from (absent in older records: `cwd` is used).
   */
  workspace?: string;
  sessionId?: string;
  toolCallId?: string;
  createdAt: string;
  expiresAt: string;
  /** Nobody was there to ask, or the prompt failed or timed out. */
  parkedBecause: 'no_person' | 'prompt_failed';
  summary?: string;
  why?: string;
  riskHints?: RiskHint[];
  /** The programs the command runs by name (what an "always" for an unknown program covers). */
  programs?: string[];
  /** What the tool invoker resolved and the person is shown; a replay runs only if they still hold. */
  facts?: ToolFacts;
}

export type PendingApproval = ParkedCall &
  (
    | { status: 'pending' }
    | { status: 'expired' }
    /** `deliveredAt` is set once the runtime has taken it to run. */
    | { status: 'approved'; decidedAt: string; always: boolean; deliveredAt?: string }
    | { status: 'denied'; decidedAt: string; reason?: string; deliveredAt?: string }
  );
export type ApprovalStatus = PendingApproval['status'];
export type ApprovedCall = Extract<PendingApproval, { status: 'approved' }>;
export type DeniedCall = Extract<PendingApproval, { status: 'denied' }>;

export type ParkInput = Omit<ParkedCall, 'id' | 'createdAt' | 'expiresAt'> & {
  /** Reuse this id (the approval request's) when it is free. */
  id?: string;
};

export interface PendingApprovalsOptions {
  now?: () => Date;
  ttlMs?: number;
  newId?: () => string;
  /** Called by `approve(id, { always: true })`; the caller implements it through the config store. */
  persistAlwaysAllow?: (agent: string, tool: string) => Promise<void>;
  /** Secret values masked in what is stored (spec 8): a parked call's arguments may carry one. */
  secrets?: () => readonly string[];
}

export class PendingApprovals {
  private readonly now: () => Date;
  private readonly ttlMs: number;
  private readonly newId: () => string;

  constructor(
    readonly dir: string,
    private readonly options: PendingApprovalsOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.ttlMs = options.ttlMs ?? PENDING_TTL_MS;
    this.newId = options.newId ?? (() => randomHex(4));
  }

  async park(input: ParkInput): Promise<PendingApproval> {
    await mkdir(this.dir, { recursive: true });
    const existing = new Set(await this.ids());
    let id = input.id && ID.test(input.id) && !existing.has(input.id) ? input.id : this.newId();
    for (let tries = 0; existing.has(id) || !ID.test(id); tries++) {
      if (tries > 20) throw new Error('could not find a free approval id');
      id = this.newId();
    }
    const created = this.now();
    const record: StoredApproval = {
      ...stripUndefined({ ...input, id: undefined }),
      id,
      createdAt: created.toISOString(),
      expiresAt: new Date(created.getTime() + this.ttlMs).toISOString(),
      status: 'pending',
    } as StoredApproval;
    await this.write(record);
    return this.view(record);
  }

  /**
   * Pending approvals, oldest first. `includeExpired` adds the ones nobody answered in time;
   * `includeResolved` adds approved and denied ones.
   */
  async list(opts: { includeExpired?: boolean; includeResolved?: boolean; agent?: string } = {}): Promise<PendingApproval[]> {
    const out: PendingApproval[] = [];
    for (const id of await this.ids()) {
      const record = await this.readRecord(id).catch(() => null); // a torn or hand-edited file is skipped
      if (!record) continue;
      const view = this.view(record);
      if (opts.agent !== undefined && view.agent !== opts.agent) continue;
      if (view.status === 'expired' && !opts.includeExpired) continue;
      if ((view.status === 'approved' || view.status === 'denied') && !opts.includeResolved) continue;
      out.push(view);
    }
    return out.sort((a, b) => compareCodeUnits(a.createdAt, b.createdAt) || compareCodeUnits(a.id, b.id));
  }

  /** By id, or by a prefix that matches exactly one id. */
  async get(idOrPrefix: string): Promise<PendingApproval> {
    return this.view(await this.readRecord(await this.resolve(idOrPrefix)));
  }

  async approve(idOrPrefix: string, opts: { always?: boolean } = {}): Promise<ApprovedCall> {
    const id = await this.resolve(idOrPrefix);
    const updated = await this.change(id, (record) => {
      this.assertOpen(record, 'approve');
      return { ...record, status: 'approved', always: opts.always === true, decidedAt: this.now().toISOString() };
    });
    // "Always" is scoped to the risks the person was shown (`bash:network`), never the bare tool.
    if (opts.always && this.options.persistAlwaysAllow) await this.options.persistAlwaysAllow(updated.agent, scopedEntry(updated.tool, riskKindsOf(updated.riskHints), updated.programs));
    return this.view(updated) as ApprovedCall;
  }

  async deny(idOrPrefix: string, opts: { reason?: string } = {}): Promise<DeniedCall> {
    const id = await this.resolve(idOrPrefix);
    const updated = await this.change(id, (record) => {
      this.assertOpen(record, 'deny');
      return stripUndefined({ ...record, status: 'denied' as const, reason: opts.reason, decidedAt: this.now().toISOString() });
    });
    return this.view(updated) as DeniedCall;
  }

  /**
   * Approved calls for `agent` (and `sessionId`, when given) that no one has taken yet, marked
   * as taken so each runs exactly once. The runtime runs them and reports in a follow-up turn.
   */
  async takeApproved(agent: string, opts: { sessionId?: string } = {}): Promise<ApprovedCall[]> {
    return (await this.take(agent, opts, ['approved'])) as ApprovedCall[];
  }

  /** Approved and denied calls not yet taken, so the follow-up turn can also tell the model "denied". */
  async takeResolved(agent: string, opts: { sessionId?: string } = {}): Promise<Array<ApprovedCall | DeniedCall>> {
    return (await this.take(agent, opts, ['approved', 'denied'])) as Array<ApprovedCall | DeniedCall>;
  }

  /** One approved call, by id, marked as taken (null when it is not approved or already taken): it runs exactly once. */
  async takeApprovedById(idOrPrefix: string): Promise<ApprovedCall | null> {
    const id = await this.resolve(idOrPrefix);
    let got = false;
    const updated = await this.change(id, (record) => {
      if (record.status !== 'approved' || record.deliveredAt) return record;
      got = true;
      return { ...record, deliveredAt: this.now().toISOString() };
    });
    return got ? (this.view(updated) as ApprovedCall) : null;
  }

  // -------------------------------------------------------------------------------------------

  private async take(agent: string, opts: { sessionId?: string }, statuses: ApprovalStatus[]): Promise<PendingApproval[]> {
    const taken: PendingApproval[] = [];
    for (const id of await this.ids()) {
      const peek = await this.readRecord(id).catch(() => null);
      if (!peek || !this.takeable(peek, agent, opts, statuses)) continue;
      let got = false;
      const updated = await this.change(id, (record) => {
        if (!this.takeable(record, agent, opts, statuses)) return record; // someone else took it meanwhile
        got = true;
        return { ...record, deliveredAt: this.now().toISOString() };
      });
      if (got) taken.push(this.view(updated));
    }
    return taken.sort((a, b) => compareCodeUnits(a.createdAt, b.createdAt));
  }

  private takeable(r: StoredApproval, agent: string, opts: { sessionId?: string }, statuses: ApprovalStatus[]): boolean {
    return r.agent === agent && statuses.includes(r.status) && !r.deliveredAt && (opts.sessionId === undefined || r.sessionId === opts.sessionId);
  }

  private assertOpen(record: StoredApproval, verb: 'approve' | 'deny'): void {
    const status = this.view(record).status;
    if (status === 'expired') {
      throw new UsageError(`cannot ${verb} ${record.id}: it expired at ${record.expiresAt} (a parked call waits ${Math.round(this.ttlMs / 60000)} minutes); ask the agent again`);
    }
    if (status !== 'pending') throw new UsageError(`cannot ${verb} ${record.id}: it was already ${status}`);
  }

  /** Applies the effective status: a pending call past its expiry is expired. */
  private view(record: StoredApproval): PendingApproval {
    const expired = record.status === 'pending' && this.now().getTime() >= Date.parse(record.expiresAt);
    const status = expired ? 'expired' : record.status;
    const base = { ...record, status } as PendingApproval & { always?: boolean };
    if (base.status === 'approved') base.always = record.always === true;
    if ((base.status === 'approved' || base.status === 'denied') && !base.decidedAt) base.decidedAt = record.createdAt;
    return base;
  }

  private async resolve(idOrPrefix: string): Promise<string> {
    const wanted = idOrPrefix.trim().toLowerCase();
    if (!/^[0-9a-f]{1,8}$/.test(wanted)) throw new UsageError(`"${idOrPrefix}" is not an approval id (8 hex characters, or a unique prefix of one)`);
    const ids = await this.ids();
    if (ids.includes(wanted)) return wanted;
    const matches = ids.filter((id) => id.startsWith(wanted));
    if (matches.length === 1) return matches[0]!;
    if (matches.length === 0) throw new UsageError(`no approval "${idOrPrefix}"; see: pepe approvals list`);
    throw new UsageError(`"${idOrPrefix}" matches ${matches.length} approvals (${matches.join(', ')}); type more of the id`);
  }

  private async ids(): Promise<string[]> {
    // Every turn asks (for approvals resolved since the last one), and mostly there is no folder
    // yet: asked so, no wait on the thread pool and no error object (issue 27).
    if (!statSync(this.dir, { throwIfNoEntry: false })) return [];
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    return names.flatMap((n) => ID_FILE.exec(n)?.[1] ?? []).sort();
  }

  private file(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private async readRecord(id: string): Promise<StoredApproval> {
    const text = await readFile(this.file(id), 'utf8');
    const parsed = StoredApproval.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.file(id)}: not a valid approval: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return parsed.data;
  }

  private async write(record: StoredApproval): Promise<void> {
    const text = new Redactor(this.options.secrets?.() ?? []).json(record, 2);
    await writeFileAtomic(this.file(record.id), text + '\n', { fsync: true });
  }

  /** Re-reads, changes and writes one approval under its lock. */
  private async change(id: string, mutate: (record: StoredApproval) => StoredApproval): Promise<StoredApproval> {
    const file = this.file(id);
    const options = { stale: 5000, update: 1000, retries: { retries: 200, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true } };
    return withFileLock(`${file}.lock`, options, async (lock) => {
      const current = await this.readRecord(id);
      const next = mutate(current);
      // Stalled past `stale` (a suspended laptop): another may have decided this approval since.
      if (next !== current && !(await lock.verify())) throw new UsageError(`approval ${id} was being changed elsewhere meanwhile; nothing was written. Try again.`);
      if (next !== current) await this.write(next);
      return next;
    });
  }
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
