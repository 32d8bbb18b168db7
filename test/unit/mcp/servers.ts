import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** The real, unmodified MCP servers from the registry, installed as dev dependencies. */
const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** argv that runs server-everything over stdio. */
export function everythingArgv(): string[] {
  return [process.execPath, join(packageDir('@modelcontextprotocol/server-everything'), 'dist', 'index.js'), 'stdio'];
}

/** argv that runs server-filesystem limited to `folder`. */
export function filesystemArgv(folder: string): string[] {
  return [process.execPath, join(packageDir('@modelcontextprotocol/server-filesystem'), 'dist', 'index.js'), folder];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** server-everything over streamable HTTP on a free loopback port; `url` is its endpoint. */
export async function everythingHttp(): Promise<{ url: string; child: ChildProcess; stop: () => void }> {
  const port = await freePort();
  const main = join(packageDir('@modelcontextprotocol/server-everything'), 'dist', 'index.js');
  const child = spawn(process.execPath, [main, 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${seen}`)), 15_000);
    const onData = (b: Buffer) => {
      seen += b.toString();
      if (/listening on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child, stop: () => child.kill('SIGKILL') };
}

/**
 * A remote MCP server built with the official SDK on a free loopback port, whose `flood` tool
 * answers with `bytes` characters: as JSON, or (`json: false`) as an event stream.
 */
export async function floodHttp(json: boolean): Promise<{ url: string; stop: () => Promise<void> }> {
  const [{ McpServer }, { StreamableHTTPServerTransport }, { z }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('zod'),
  ]);
  const srv = createHttpServer((req, res) => {
    const server = new McpServer({ name: 'flood', version: '1' });
    server.registerTool('flood', { description: 'answers with that many characters', inputSchema: { bytes: z.number().int() } }, ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}
