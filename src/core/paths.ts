import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where everything lives (spec 2). */
export interface PepePaths {
  home: string;
  config: string;
  plugins: string;
  agents: string;
  sessions: string;
  approvals: string;
  usage: string;
  logs: string;
  cache: string;
}

export function resolveHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = explicit || env.PEPE_HOME || join(homedir(), '.pepe');
  return resolve(chosen);
}

export function pepePaths(home: string): PepePaths {
  return {
    home,
    config: join(home, 'config.json'),
    plugins: join(home, 'plugins'),
    agents: join(home, 'agents'),
    sessions: join(home, 'sessions'),
    approvals: join(home, 'approvals'),
    usage: join(home, 'usage.jsonl'),
    logs: join(home, 'logs'),
    cache: join(home, 'cache'),
  };
}

export function agentHome(paths: PepePaths, agent: string): string {
  return join(paths.agents, agent);
}
