import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { withoutInherited } from '../sandbox/inherited-fds.js';

export interface StdioServer {
  command: string;
  args: string[];
  /** Exactly the server's environment: nothing of Pepe's own is added. */
  env: Record<string, string>;
  cwd: string;
  /** One message larger than this stops the server (a flood). */
  maxBufferSize: number;
}

/**
 * A local MCP server over its stdin and stdout, as the SDK's stdio client transport does it
 * (newline-delimited JSON-RPC; on close: stdin ended, then SIGTERM, then SIGKILL, two seconds
 * apart), with two differences: the server gets exactly `env`, and none of the descriptors Pepe was
 * started with that are not closed on exec (the SDK's transport takes no descriptor list, and a
 * server could write through one to a file outside its confinement).
 */
export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private started = false;
  private readonly buffer: ReadBuffer;
  /** The server's stderr, there before `start` so nothing early is lost. */
  readonly stderr = new PassThrough();

  constructor(private readonly server: StdioServer) {
    this.buffer = new ReadBuffer({ maxBufferSize: server.maxBufferSize });
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.started) throw new Error('this MCP server was already started');
    this.started = true;
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, this.server.args, {
        env: this.server.env,
        cwd: this.server.cwd,
        stdio: withoutInherited(['pipe', 'pipe', 'pipe']),
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      // Absent when the spawn failed at once (too many open files): 'error' says why.
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch (error) {
          // A flood: nothing more is read while the server is stopped.
          child.stdout?.destroy();
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        this.readMessages();
      });
      child.stderr?.on('error', () => undefined);
      child.stderr?.pipe(this.stderr);
    });
  }

  private readMessages(): void {
    for (;;) {
      // A line that is not JSON-RPC, or a handler that throws, is an error for the client, never
      // an exception out of the pipe's listener (readMessage takes the line off first).
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    // Settled by the write's own callback: a server that exits with the write pending never
    // sends 'drain', and waiting for it would hang the client.
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const within = (ms: number) => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // already gone
      }
      await within(2000);
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (child.exitCode !== null || child.signalCode !== null) break;
        try {
          child.kill(signal);
        } catch {
          // already gone
        }
        if (signal === 'SIGTERM') await within(2000);
      }
    }
    this.buffer.clear();
  }
}
