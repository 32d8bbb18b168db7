import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
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
