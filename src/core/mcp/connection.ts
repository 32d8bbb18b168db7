import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioServerTransport } from './stdio-transport.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import type { PepeConfig } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import { confinedCommand, detectConfinement, processLimitPrefix, sandboxPolicy, type ConfinementPolicy, type ConfinementStatus } from '../sandbox/index.js';
import { allowListEnv } from '../secrets/scrub.js';
import { cappedFetch } from './capped-fetch.js';
import { DEFAULT_IDLE_MS, DEFAULT_TIMEOUT_MS, resolveRecord, resolveRefs, type McpServerConfig } from '../config/mcp-servers.js';

export type { McpToolInfo };

/** How long a server may take to start and answer `initialize` and `tools/list`. */
export const START_TIMEOUT_MS = 30_000;
/** One JSON-RPC line from a local server larger than this stops the server (a flood). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
const STDERR_KEEP = 4000;
/** After a failed start, the same error is given for this long before trying again. */
export const START_RETRY_MS = 30_000;

/** The SDK loads on first use (sdk.ts): most commands and turns never start an MCP server. */
let sdk: Promise<typeof import('./sdk.js')> | undefined;
function loadSdk() {
  sdk ??= import('./sdk.js');
  return sdk.then((m) => ({ Client: m.Client, SSEClientTransport: m.SSEClientTransport, StdioServerTransport: m.StdioServerTransport, StreamableHTTPClientTransport: m.StreamableHTTPClientTransport }));
}

export type McpState = 'stopped' | 'starting' | 'running' | 'failed';

/** The OS confinement a local server is started under (the sandbox module; replaceable in tests). */
export interface McpConfiner {
  status(): Promise<ConfinementStatus>;
  command(policy: ConfinementPolicy, argv: string[]): { file: string; args: string[] };
}

export const osConfiner: McpConfiner = {
  status: detectConfinement,
  command(policy, argv) {
    const prefix = processLimitPrefix(policy);
    return confinedCommand(policy, prefix ? ['/bin/sh', '-c', `${prefix}exec "$@"`, 'sh', ...argv] : argv);
  },
};

export interface ConnectionDeps {
  /** $PEPE_HOME: hidden from a local server, except the server's own data folder inside it. */
  home: string;
  env: NodeJS.ProcessEnv;
  config: () => PepeConfig;
  confiner?: McpConfiner;
  /** A notice for the person (a restart after a crash, a deadline miss). */
  onNotice?: (server: string, text: string) => void;
}

/** Why a call did not produce a server result: the caller turns it into an error for the model. */
export class McpCallError extends Error {
  constructor(message: string, readonly kind: 'deadline' | 'stopped' | 'start' | 'cancelled' | 'protocol') {
    super(message);
    this.name = 'McpCallError';
  }
}

/**
 * One configured server: started on first use, reused, restarted after it stops unexpectedly,
 * stopped when idle or disposed. A call cut off at its deadline stops the server (it may be stuck);
 * the next use starts a fresh one.
 */
export class McpConnection {
  state: McpState = 'stopped';
  lastError: string | null = null;
  restarts = 0;
  /** Set when the server stopped on its own; the next start says so. */
  private crashed: string | null = null;
  private client: Client | null = null;
  private transport: Transport | null = null;
  private starting: Promise<Client> | null = null;
  private tools: McpToolInfo[] | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private stderrTail = '';
  private transportError: string | null = null;
  private inFlight = 0;
  private notices: string[] = [];
  private failedAt = 0;

  constructor(readonly name: string, readonly server: McpServerConfig, private readonly deps: ConnectionDeps) {}

  /** Notices since the last call (a restart after a crash, a deadline miss), for the turn to show. */
  takeNotices(): string[] {
    return this.notices.splice(0);
  }

  private notice(text: string): void {
    this.notices.push(text);
    this.deps.onNotice?.(this.name, text);
  }

  /** Calls in flight now. */
  get busy(): number {
    return this.inFlight;
  }

  get pid(): number | null {
    return (this.transport as StdioServerTransport | null)?.pid ?? null;
  }

  /** The server's tools (listed once per start). */
  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const client = await this.ensure();
    if (!this.tools) {
      const all: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: START_TIMEOUT_MS, ...(signal ? { signal } : {}) });
        all.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && all.length < 1000);
      this.tools = all;
    }
    this.touch();
    return this.tools;
  }

  /** Calls one tool, cut off at the server's deadline or when `signal` aborts. */
  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const client = await this.ensure();
    const timeout = this.server.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    this.inFlight++;
    // A signal of its own per call: the SDK never removes the listener it adds, and a turn's
    // signal serves many calls.
    const own = new AbortController();
    const forward = () => own.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout, maxTotalTimeout: timeout, signal: own.signal });
      return result as CallToolResult;
    } catch (e) {
      if (signal?.aborted || own.signal.aborted) throw new McpCallError('cancelled while the MCP tool ran', 'cancelled');
      const code = (e as { code?: unknown }).code;
      if (code === -32001) {
        // A server that misses a deadline may be stuck: stop it; the next use starts a fresh one.
        const text = `MCP server "${this.name}" did not answer ${tool} within ${timeout} ms; the call was cut off and the server stopped (it starts again on next use)`;
        this.deps.onNotice?.(this.name, text);
        await this.stop();
        throw new McpCallError(text, 'deadline');
      }
      if (!this.client || this.crashed) {
        throw new McpCallError(`MCP server "${this.name}" stopped during the call (${this.crashed ?? errorMessage(e)}); it will be restarted on next use`, 'stopped');
      }
      throw new McpCallError(`MCP error from "${this.name}": ${errorMessage(e)}`, 'protocol');
    } finally {
      signal?.removeEventListener('abort', forward);
      this.inFlight--;
      this.touch();
    }
  }

  async stop(): Promise<void> {
    this.clearIdle();
    const client = this.client;
    const transport = this.transport;
    this.client = null;
    this.transport = null;
    this.tools = null;
    this.starting = null;
    if (this.state !== 'failed') this.state = 'stopped';
    if (!client) return;
    this.stopping = true;
    try {
      // A local server is killed outright (its process group under bubblewrap dies with it):
      // a stuck server would otherwise hold the close for seconds.
      const pid = (transport as StdioServerTransport | null)?.pid ?? null;
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await client.close().catch(() => undefined);
    } finally {
      this.stopping = false;
    }
  }

  /** Forget a failed start: the next use tries again at once (Restart, a fixed environment). */
  retryNow(): void {
    this.failedAt = 0;
  }

  private ensure(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    // A server that just failed to start is not tried again by every turn (a hanging start would
    // hold each turn up to the start deadline): the same error, until the back-off has passed.
    if (this.state === 'failed' && Date.now() - this.failedAt < START_RETRY_MS) return Promise.reject(new McpCallError(this.lastError ?? `MCP server "${this.name}" failed to start`, 'start'));
    this.starting ??= this.start().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private async start(): Promise<Client> {
    if (this.server.disabled) throw new McpCallError(`MCP server "${this.name}" is disabled in the configuration`, 'start');
    this.state = 'starting';
    this.stderrTail = '';
    this.transportError = null;
    const wasCrashed = this.crashed;
    try {
      const client = this.server.url ? await this.connectRemote() : await this.connectLocal();
      this.client = client;
      this.state = 'running';
      this.lastError = null;
      if (wasCrashed) {
        this.restarts++;
        this.crashed = null;
        this.notice(`MCP server "${this.name}" was restarted after it stopped unexpectedly (${wasCrashed})`);
      }
      this.touch();
      return client;
    } catch (e) {
      this.state = 'failed';
      const tail = this.stderrTail.trim().split('\n').slice(-5).join('\n');
      const msg = errorMessage(e);
      this.lastError = `${e instanceof McpCallError || msg.startsWith(`MCP server "${this.name}"`) ? msg : `MCP server "${this.name}" could not start: ${msg}`}${tail ? `\n${tail}` : ''}`;
      await this.stop();
      this.state = 'failed';
      this.failedAt = Date.now();
      throw new McpCallError(this.lastError, 'start');
    }
  }

  private async connectLocal(): Promise<Client> {
    const confiner = this.deps.confiner ?? osConfiner;
    const status = await confiner.status();
    if (!status.confined) {
      // Fail closed: a local server runs confined like any command, or not at all.
      throw new McpCallError(`MCP server "${this.name}" was not started: local servers run only confined, and confinement is not available here (${status.reason})`, 'start');
    }
    const config = this.deps.config();
    const dataDir = join(this.deps.home, 'mcp-data', this.name);
    mkdirSync(dataDir, { recursive: true });
    const where = `MCP server "${this.name}"`;
    const argv = [resolveRefs(this.server.command!, this.deps.env, `${where} command`), ...(this.server.args ?? []).map((a, i) => resolveRefs(a, this.deps.env, `${where} args[${i}]`))];
    const policy = sandboxPolicy({ workspace: dataDir, pepeHome: this.deps.home, home: homedir(), hostEnv: this.deps.env, network: this.server.network === true, maxProcesses: 128 });
    // The folders the person gave this server, as real paths (a link must not widen them).
    const real = (p: string) => {
      const abs = isAbsolute(p) ? p : resolve(dataDir, p);
      try {
        return realpathSync(abs);
      } catch {
        throw new McpCallError(`${where}: the folder ${abs} does not exist`, 'start');
      }
    };
    policy.writable.push(...(this.server.writable ?? []).map(real));
    policy.readOnly.push(...(this.server.readable ?? []).map(real));
    // The program the person configured must be readable even where the sandbox hides its folder
    // (a private /tmp): the files named on the command line, read-only.
    policy.readOnly.push(...programFolders(argv, this.deps.home, homedir()));
    const cmd = confiner.command(policy, argv);
    // The allow-list environment, the server's own variables, and its data folder as HOME (npx's cache goes there).
    const env = { ...allowListEnv(this.deps.env, config), HOME: dataDir, ...resolveRecord(this.server.env, this.deps.env, `${where} env`) };
    const { StdioServerTransport } = await loadSdk();
    const transport = new StdioServerTransport({ command: cmd.file, args: cmd.args, env, cwd: dataDir, maxBufferSize: MAX_MESSAGE_BYTES });
    transport.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    return this.connect(transport);
  }

  private async connectRemote(): Promise<Client> {
    const where = `MCP server "${this.name}"`;
    const url = new URL(resolveRefs(this.server.url!, this.deps.env, `${where} url`));
    const headers = resolveRecord(this.server.headers, this.deps.env, `${where} header`);
    const requestInit = { headers };
    // The same cap per message as a local server's: a flooding server is cut off, the call fails.
    const capped = cappedFetch(MAX_MESSAGE_BYTES, (reason) => this.cutOff(reason));
    const { SSEClientTransport, StreamableHTTPClientTransport } = await loadSdk();
    if (this.server.transport === 'sse') return this.connect(new SSEClientTransport(url, { requestInit, fetch: capped }));
    try {
      return await this.connect(new StreamableHTTPClientTransport(url, { requestInit, fetch: capped }));
    } catch (e) {
      if (this.server.transport === 'streamable') throw e;
      // Older servers speak only HTTP+SSE.
      try {
        return await this.connect(new SSEClientTransport(url, { requestInit, fetch: capped }));
      } catch (e2) {
        throw new Error(`streamable HTTP: ${errorMessage(e)}; SSE: ${errorMessage(e2)}`);
      }
    }
  }

  private async connect(transport: Transport): Promise<Client> {
    const { Client } = await loadSdk();
    const client = new Client({ name: 'pepe', version: '1' }, { capabilities: {} });
    client.onclose = () => {
      // A deliberate stop (or a client that never became the current one) is no crash.
      if (this.client !== client || this.stopping) return;
      // Stopped on its own (crashed, killed, flooded): the next use restarts it, with a notice.
      this.crashed = this.transportError ?? (this.stderrTail.trim().split('\n').pop() || 'the server process exited');
      this.client = null;
      this.transport = null;
      this.tools = null;
      this.state = 'stopped';
      this.clearIdle();
    };
    client.onerror = (e) => {
      // The first error says why (a flood's cap); what follows is the debris of the cut stream.
      this.transportError ??= errorMessage(e);
    };
    this.transport = transport;
    try {
      await client.connect(transport, { timeout: START_TIMEOUT_MS });
    } catch (e) {
      this.transport = null;
      await client.close().catch(() => undefined);
      throw e;
    }
    return client;
  }

  /** A remote server over the size cap: the connection closes as if it had dropped (the call fails, the next use reconnects). */
  private cutOff(reason: string): void {
    this.transportError ??= reason;
    void this.client?.close().catch(() => undefined);
  }

  private touch(): void {
    this.clearIdle();
    if (!this.client || this.inFlight > 0) return;
    this.idleTimer = setTimeout(() => void this.stop(), this.server.idle_ms ?? DEFAULT_IDLE_MS);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}

/**
 * Folders holding the files named on a server's command line: for a file inside node_modules, the
 * outermost node_modules folder (so the script's own dependencies resolve), else the file's folder.
 * Never a folder inside $PEPE_HOME or a hidden folder of the user's home.
 */
export function programFolders(argv: readonly string[], pepeHome: string, home: string): string[] {
  const out = new Set<string>();
  const hiddenRoots = [pepeHome].map((p) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  });
  for (const arg of argv) {
    if (!isAbsolute(arg)) continue;
    let file: string;
    try {
      file = realpathSync(arg);
      if (!statSync(file).isFile()) continue;
    } catch {
      continue;
    }
    const parts = file.split(sep);
    const nm = parts.indexOf('node_modules');
    const folder = nm > 0 ? parts.slice(0, nm + 1).join(sep) : dirname(file);
    const inside = (root: string) => folder === root || folder.startsWith(root + sep);
    if (hiddenRoots.some(inside)) continue;
    const relHome = relative(home, folder);
    if (!relHome.startsWith('..') && !isAbsolute(relHome) && relHome.split(sep).some((seg) => seg.startsWith('.'))) continue;
    out.add(folder);
  }
  return [...out];
}
