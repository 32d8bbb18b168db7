import type { CreateProviderOptions } from '../models/factory.js';
import type { Prompter } from '../permissions/approval.js';
import type { SandboxSurface } from '../slots/builtin/index.js';

export interface CreatePepeOptions {
  /** PEPE_HOME; defaults to $PEPE_HOME, then ~/.pepe. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Shows built-in sandbox commands as they run (VS Code terminal). */
  sandboxSurface?: SandboxSurface;
  /** Where plugins' console output goes (default: the log file). */
  onPluginOutput?: (plugin: string, text: string) => void;
  /** How the surface asks a person (CLI: TTY prompt; VS Code: modal). Absent: nobody to ask. */
  prompter?: Prompter | null;
  /** Default cwd for commands and root for relative file paths (default: process.cwd()). */
  workspace?: string;
  /** Extra model sources (vscode.lm), retry tuning, where mock scripts are found. */
  providerOptions?: CreateProviderOptions;
  /**
   * Workspace Trust (spec 7): agent cores are code; when false they run with base_input /
   * base_output only and the turn says why. Default true (the CLI runs what its user points at).
   */
  trusted?: boolean;
  /** How write_file and edit_file write (VS Code: through its documents, for undo and dirty buffers). Default: straight to disk. */
  writeFile?: import('../tools/tool.js').FileWriter;
  /** The editor's errors and warnings after a file tool wrote (issue 25): VS Code sets it, the CLI does not. */
  editorFeedback?: import('../tools/editor-feedback.js').EditorFeedback;
  /** Leave every workspace-supplied file out (`--untrusted`): agent files, MCP entries and hooks of the workspace. */
  untrusted?: boolean;
  /** The user's VS Code `mcp.json` (the extension: its profile's; the CLI: the documented default). Absent: not read. */
  vscodeUserMcp?: string | null;
}
