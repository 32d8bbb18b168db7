import * as vscode from 'vscode';
import { ConfigError } from '../../core/errors.js';
import { Pepe } from '../../core/pepe.js';
import type { CreatePepeOptions } from '../../core/facade/create-options.js';
import { LanguageModelProvider, parseVscodeModelId } from '../models/lm-provider.js';
import { DiffApprovals } from '../editing/diff-approval.js';
import { diagnosticsFeedback } from '../editing/diagnostics-feedback.js';
import { documentWriter } from '../editing/document-writer.js';
import { ModalPrompter } from '../permissions/modal-prompter.js';
import type { ExtensionOccupants } from '../occupants.js';
import type { SandboxTerminals } from '../terminal/sandbox-terminals.js';
import { keyEnvNames, type ApiKeys } from './api-keys.js';
import { ConfigWatcher } from './config-watcher.js';
import { refreshSchemaCopy } from './config-schema-link.js';
import { HeartbeatRunner } from './heartbeat-runner.js';
import type { BuiltPepe, PepeHost } from './pepe-host.js';

export interface BuildDeps {
  home: string | undefined;
  workspace: string | undefined;
  /** Workspace Trust: agent cores (workspace-authored code) run only when trusted (spec 7). */
  trusted: boolean;
  apiKeys: ApiKeys;
  log: vscode.LogOutputChannel;
  terminals: SandboxTerminals;
  occupants: ExtensionOccupants;
  /** The user's VS Code `mcp.json` (its servers need no acceptance). */
  vscodeUserMcp?: string;
}

/**
 * The heavy half of the composition root, loaded on first use (dynamic import keeps the core,
 * execa, zod and the model SDKs out of activation): builds Pepe with the extension's surfaces.
 */
export async function buildPepe(host: PepeHost, deps: BuildDeps): Promise<BuiltPepe> {
  const resources: vscode.Disposable[] = [];
  const base = process.env;
  // A copy the core reads model keys from; SecretStorage values are overlaid for `api_key_env`
  // names only. The core scrubs those names from the sandbox and plugin environments (spec 8).
  const env: NodeJS.ProcessEnv = { ...base };
  const terminals = deps.terminals;
  // File changes are approved on a diff and written through VS Code's documents (undo, dirty buffers).
  let homeDir = '';
  const diffs = new DiffApprovals(() => homeDir, (line) => deps.log.info(line));
  resources.push(diffs);
  const options: CreatePepeOptions = {
    home: deps.home,
    env,
    workspace: deps.workspace,
    trusted: deps.trusted,
    ...(deps.vscodeUserMcp ? { vscodeUserMcp: deps.vscodeUserMcp } : {}),
    prompter: new ModalPrompter((line) => deps.log.info(line), diffs),
    writeFile: documentWriter((line) => deps.log.info(line)),
    // New errors and warnings VS Code reports for a file the agent changed go into the tool's result.
    editorFeedback: diagnosticsFeedback(),
    sandboxSurface: terminals,
    onPluginOutput: (plugin, text) => deps.log.info(`[plugin ${plugin}] ${text.trimEnd()}`),
    providerOptions: {
      external: (id) => {
        const selector = parseVscodeModelId(id);
        return selector ? new LanguageModelProvider(id, selector) : undefined;
      },
    },
  };
  const pepe = new Pepe(options);
  homeDir = pepe.paths.home;
  try {
    await pepe.reload();
  } catch (e) {
    // A broken config.json must not stop the views: they show the problem; writes stay refused.
    if (!(e instanceof ConfigError)) throw e;
    host.setConfigProblem(e);
    deps.log.error(e.message);
  }
  deps.occupants.attach(pepe);
  // config.json's "$schema" names a copy next to it, so the schema applies wherever PEPE_HOME is.
  void refreshSchemaCopy(pepe.paths.home).catch((e: unknown) => deps.log.warn(`config schema copy: ${String(e)}`));
  // Set API Key… re-overlays before it returns, so the very next request uses the new key.
  // MCP servers' ${VAR} references may be SecretStorage entries too (Set MCP Server Secret…).
  const keys = deps.apiKeys.bind(env, base, () => [...keyEnvNames(pepe.config.models), ...pepe.mcpDescribe().flatMap((r) => r.credentials.map((c) => c.variable))]);
  resources.push(keys);
  const syncKeys = () => keys.sync();
  await syncKeys();

  const unlisten = pepe.onLogEntry((entry) => {
    const { ts: _ts, kind, ...rest } = entry;
    const text = `${kind} ${JSON.stringify(rest)}`;
    if (kind === 'slot_fallback' || kind === 'plugin_error') deps.log.warn(text);
    else deps.log.info(text);
  });
  resources.push({ dispose: unlisten });
  // Spec 4.7: pulses fire while a window is open; a config change is looked at at once.
  const heartbeat = new HeartbeatRunner(pepe, {
    log: deps.log,
    openChat: (agent, sessionId) => void vscode.commands.executeCommand('pepe.chat.open', { agent, sessionId }),
  });
  resources.push(
    new ConfigWatcher(pepe.paths.home, pepe.paths.plugins, () => {
      void host
        .reload()
        .then(syncKeys)
        .then(() => heartbeat.check());
    }),
    heartbeat,
  );
  deps.log.info(`Pepe ready (PEPE_HOME: ${pepe.paths.home})`);
  return { pepe, resources, answerEdit: (kind, uri) => diffs.answer(uri, { kind }) };
}
