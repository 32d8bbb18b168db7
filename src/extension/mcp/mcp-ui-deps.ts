import type * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';
import type { ApiKeys } from '../host/api-keys.js';
import type { PepeHost } from '../host/pepe-host.js';

/** What the MCP view and its commands are built with (register.ts, mcp-add.ts). */
export interface McpUiDeps {
  host: PepeHost;
  /** SecretStorage: where a server's `${VAR}` credential may be kept instead of the environment. */
  secrets: Pick<ApiKeys, 'set'>;
  log: vscode.LogOutputChannel;
  defaultAgent: (pepe: Pepe) => string | null;
}
