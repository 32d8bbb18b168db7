import * as vscode from 'vscode';
import type { ModelConfig, PepeConfig } from '../../core/config/schema.js';
import { errorMessage } from '../../core/errors.js';
import { listModels } from '../../core/models/model-list.js';
import { testModel } from '../../core/models/test-request.js';
import type { Pepe } from '../../core/pepe.js';
import { draftProblem, keyEnvFor, parseFormMessage, type Draft, type HostFormMessage } from '../../protocol/model-form-messages.js';
import type { CommandContext } from '../commands/command-context.js';
import { keyEnvNames } from '../host/api-keys.js';
import { LanguageModelProvider, parseVscodeModelId } from './lm-provider.js';
import { modelFormHtml } from './model-form-html.js';

export const MODEL_FORM_VIEW_TYPE = 'pepe.modelForm';

/** What the form's Save hands to Add Model (its argument form, spec 4.2). */
export type SaveModel = (args: Record<string, unknown>) => Promise<{ id: string; madeDefault: boolean; model?: ModelConfig }>;

let open: ModelForm | undefined;

/**
 * Opens the model setup form (or brings the open one forward). Resolves with the saved model's id
 * when opened from Add Agent (the form then closes), or undefined when it is closed without saving.
 */
export function openModelForm(ctx: CommandContext, save: SaveModel, opts: { fromAddAgent?: boolean } = {}): Promise<string | undefined> {
  if (open) {
    open.panel.reveal(undefined, false);
    if (opts.fromAddAgent) open.fromAddAgent = true;
    return open.result;
  }
  const extensionUri = vscode.extensions.getExtension('pepe.pepe')?.extensionUri;
  if (!extensionUri) throw new Error('the Pepe extension folder was not found');
  const panel = vscode.window.createWebviewPanel(MODEL_FORM_VIEW_TYPE, 'Pepe: Set Up a Model', { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  });
  open = new ModelForm(panel, ctx, save, opts.fromAddAgent === true);
  panel.webview.html = modelFormHtml(panel.webview, extensionUri);
  return open.result;
}

class ModelForm {
  fromAddAgent: boolean;
  readonly result: Promise<string | undefined>;
  private resolve!: (id: string | undefined) => void;
  private savedId: string | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly ctx: CommandContext,
    private readonly save: SaveModel,
    fromAddAgent: boolean,
  ) {
    this.fromAddAgent = fromAddAgent;
    this.result = new Promise((r) => (this.resolve = r));
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const m = parseFormMessage(raw);
      if (!m) return void ctx.log.warn('model form: a message that is not in the protocol was ignored');
      void this.handle(m).catch((e: unknown) => this.post({ type: 'problem', message: errorMessage(e) }));
    });
    panel.onDidDispose(() => {
      if (open === this) open = undefined;
      this.resolve(this.savedId);
    });
  }

  private post(m: HostFormMessage): void {
    void this.panel.webview.postMessage(m);
  }

  private async handle(m: NonNullable<ReturnType<typeof parseFormMessage>>): Promise<void> {
    const pepe = await this.ctx.host.get();
    switch (m.type) {
      case 'ready': {
        const names = [...new Set(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', ...keyEnvNames(pepe.config.models)])];
        const storedKeys = (await Promise.all(names.map(async (n) => ((await this.ctx.apiKeys.has(n)) ? n : undefined)))).filter((n): n is string => !!n);
        const chain = pepe.config.default_model_chain ?? [];
        this.post({ type: 'init', existingIds: Object.keys(pepe.config.models ?? {}), storedKeys, firstModel: !chain.length, fromAddAgent: this.fromAddAgent });
        // The form puts the keyboard in its first field when it is set up; the panel was opened to
        // take focus, but what opened it (the walkthrough's link, a view's button) may have taken
        // the focus back while the form loaded: the panel still in front takes it again.
        if (this.panel.active) this.panel.reveal(undefined, false);
        return;
      }
      case 'listModels': {
        if (m.provider === 'vscode') {
          const models = await vscodeModels();
          return this.post({ type: 'models', seq: m.seq, ok: models.length > 0, models, ...(models.length ? {} : { message: 'no VS Code language model is installed (for example GitHub Copilot Chat)' }) });
        }
        const env = keyEnvFor(m.provider, '');
        const key = m.apiKey || (m.provider === 'openai-compatible' ? undefined : env && pepe.env[env]);
        if (!key && m.provider !== 'openai-compatible') return this.post({ type: 'models', seq: m.seq, ok: false, models: [], message: 'enter the API key to see the list' });
        const listed = await listModels({ provider: m.provider, ...(m.baseUrl ? { baseUrl: m.baseUrl } : {}), ...(key ? { apiKey: key } : {}) });
        return this.post(listed.ok ? { type: 'models', seq: m.seq, ok: true, models: listed.models, source: listed.source } : { type: 'models', seq: m.seq, ok: false, models: [], message: listed.message });
      }
      case 'test': {
        const problem = draftProblem(m.draft, Object.keys(pepe.config.models ?? {}));
        if (problem) return this.post({ type: 'problem', message: problem });
        this.post({ type: 'testing' });
        const { id, config, env } = trial(pepe, m.draft);
        const test = await testModel(id, config, env, {
          baseDir: pepe.paths.home,
          external: (ref) => {
            const selector = parseVscodeModelId(ref);
            return selector ? new LanguageModelProvider(ref, selector) : undefined;
          },
        });
        this.ctx.log.info(`model form test of ${id}: ${test.ok ? `answered in ${test.ms} ms` : test.message}`);
        return this.post(test.ok ? { type: 'tested', ok: true, text: test.text.slice(0, 200), ms: test.ms } : { type: 'tested', ok: false, ms: test.ms, message: test.message, keyProblem: test.kind === 'auth' || !!test.keyEnv });
      }
      case 'save': {
        const problem = draftProblem(m.draft, Object.keys(pepe.config.models ?? {}));
        if (problem) return this.post({ type: 'problem', message: problem });
        const d = m.draft;
        const keyEnv = d.provider === 'vscode' ? undefined : keyEnvFor(d.provider, d.id);
        const stored = keyEnv ? await this.ctx.apiKeys.has(keyEnv) : false;
        // OpenAI and Anthropic always name their key; a local server only when one was typed or is stored.
        const nameKey = keyEnv && (d.provider !== 'openai-compatible' || d.apiKey || stored);
        const saved = await this.save({
          provider: d.provider,
          model: d.model.trim(),
          ...(d.provider !== 'vscode' ? { id: d.id } : {}),
          ...(d.provider === 'openai-compatible' ? { baseUrl: d.baseUrl } : {}),
          ...(nameKey ? { apiKeyEnv: keyEnv } : {}),
          ...(d.apiKey ? { apiKey: d.apiKey } : {}),
          skipTest: true,
        });
        this.savedId = saved.id;
        this.post({ type: 'saved', id: saved.id, madeDefault: saved.madeDefault, ...(nameKey ? { keyEnv } : {}) });
        if (this.fromAddAgent) this.panel.dispose();
        return;
      }
      case 'addAgent':
        this.panel.dispose();
        await vscode.commands.executeCommand('pepe.agent.add', this.savedId ? { model: this.savedId } : undefined);
        return;
      case 'close':
        this.panel.dispose();
        return;
    }
  }
}

/** The draft as a config and env a test request can use, without touching config.json. */
function trial(pepe: Pepe, d: Draft): { id: string; config: PepeConfig; env: Record<string, string | undefined> } {
  if (d.provider === 'vscode') return { id: `vscode:${d.model.trim()}`, config: pepe.config, env: pepe.env };
  const keyEnv = keyEnvFor(d.provider, d.id)!;
  const env = { ...pepe.env, ...(d.apiKey ? { [keyEnv]: d.apiKey } : {}) };
  // A local server without a key: no key name, as Save writes it.
  const named = d.provider !== 'openai-compatible' || !!env[keyEnv];
  const model: ModelConfig = { provider: d.provider, model: d.model.trim(), ...(d.baseUrl && d.provider === 'openai-compatible' ? { base_url: d.baseUrl } : {}), ...(named ? { api_key_env: keyEnv } : {}) };
  return { id: d.id, config: { ...pepe.config, models: { ...pepe.config.models, [d.id]: model } }, env };
}

async function vscodeModels(): Promise<string[]> {
  try {
    const seen = new Set<string>();
    for (const m of await vscode.lm.selectChatModels()) seen.add(`${m.vendor}/${m.family}`);
    return [...seen];
  } catch {
    return [];
  }
}
