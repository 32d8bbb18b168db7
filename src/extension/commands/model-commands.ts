import * as vscode from 'vscode';
import type { ModelConfig } from '../../core/config/schema.js';
import { UsageError } from '../../core/errors.js';
import { testModel, type ModelTestResult } from '../../core/models/test-request.js';
import type { Pepe } from '../../core/pepe.js';
import { linkConfigSchema } from '../host/config-schema-link.js';
import { LanguageModelProvider, parseVscodeModelId } from '../models/lm-provider.js';
import { ConfigOpenArgs, ModelAddArgs, ModelTestArgs, parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { Cancelled, input, pick } from './ui.js';

type Provider = 'openai' | 'openai-compatible' | 'anthropic' | 'vscode';

const TITLE = 'Pepe: Add Model';
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const DEFAULTS: Record<'openai' | 'anthropic', { model: string; keyEnv: string }> = {
  openai: { model: 'gpt-4o-mini', keyEnv: 'OPENAI_API_KEY' },
  anthropic: { model: 'claude-sonnet-4-5', keyEnv: 'ANTHROPIC_API_KEY' },
};

export interface ModelAddResult {
  id: string;
  model?: ModelConfig;
  /** True when default_model_chain was unset and now names this model. */
  madeDefault: boolean;
  test?: ModelTestResult;
}

/**
 * Add Model (spec 4.2): provider → model → key (SecretStorage, under the model's api_key_env) →
 * one real test request whose outcome is reported as is. The model is saved before the test, so a
 * failed test loses nothing: the person fixes the key or the server and tests again.
 */
export async function modelAdd(ctx: CommandContext, raw: unknown, opts: { fromAddAgent?: boolean } = {}): Promise<ModelAddResult> {
  const args = parseArgs(ModelAddArgs, 'pepe.model.add', raw);
  const interactive = raw === undefined || raw === null;
  const pepe = await ctx.host.get();
  if (ctx.host.configProblem) throw new UsageError(`config.json has a problem; fix it first: ${ctx.host.configProblem}`);
  const provider: Provider = args.provider ?? (await pickProvider());

  let id: string;
  let model: ModelConfig | undefined;
  let key: { env: string; value: string } | undefined;
  if (provider === 'vscode') {
    id = args.model ? `vscode:${args.model}` : await pickLanguageModel();
    if (!parseVscodeModelId(id)) throw new UsageError(`"${id}" is not a VS Code language model id (vscode:<vendor>/<family>)`);
  } else {
    const existing = new Set(Object.keys(pepe.config.models ?? {}));
    const baseUrl =
      provider === 'openai-compatible'
        ? (args.baseUrl ?? (await input({ title: `${TITLE}: base URL`, prompt: 'Where the server answers OpenAI chat completions, ending before /chat/completions', value: 'http://localhost:11434/v1', validateInput: validUrl })))
        : args.baseUrl;
    const name =
      args.model ??
      (await input({
        title: `${TITLE}: model`,
        prompt: provider === 'openai-compatible' ? 'The model name the server knows, e.g. llama3.2 (Ollama), qwen2.5-7b-instruct (LM Studio)' : 'The model name, as the provider spells it',
        value: provider === 'openai-compatible' ? '' : DEFAULTS[provider].model,
        validateInput: (v) => (v.trim() ? undefined : 'a model name'),
      }));
    id =
      args.id ??
      (await input({
        title: `${TITLE}: name in Pepe`,
        prompt: 'The id agents use for this model (a key of "models" in config.json)',
        value: suggestId(name.trim(), existing),
        validateInput: (v) => (!ID_PATTERN.test(v) ? 'letters, digits, _ . - (up to 64)' : existing.has(v) ? `model "${v}" already exists` : undefined),
      }));
    if (existing.has(id)) throw new UsageError(`model "${id}" already exists in config.json; choose another name`);
    key = await askKey(ctx, provider, id, args, interactive);
    model = { provider, model: name.trim(), ...(baseUrl ? { base_url: baseUrl } : {}), ...(key ? { api_key_env: key.env } : {}) };
  }

  // Written before the test so nothing is lost when it fails; the key goes to SecretStorage only.
  const madeDefault = await pepe.modelAdd(id, model);
  await ctx.host.reload();
  await linkConfigSchema(pepe).catch((e: unknown) => ctx.log.warn(`config schema: ${String(e)}`));
  if (key?.value) await ctx.apiKeys.set(key.env, key.value); // overlays it before returning
  ctx.refresh();
  ctx.log.info(`model ${id} added${madeDefault ? ' (now the default model chain)' : ''}`);

  const result: ModelAddResult = { id, ...(model ? { model } : {}), madeDefault };
  if (args.skipTest) return result;
  result.test = await runTest(pepe, id);
  ctx.log.info(`model ${id} test: ${result.test.ok ? `answered in ${result.test.ms} ms` : result.test.message}`);
  if (interactive) void reportTest(result.test, madeDefault, !opts.fromAddAgent);
  return result;
}

/** The test request, through the same provider a turn would use (keys from the overlaid env). */
export async function runTest(pepe: Pepe, id: string): Promise<ModelTestResult> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Pepe: testing model ${id}…` }, () =>
    testModel(id, pepe.config, pepe.env, {
      baseDir: pepe.paths.home,
      external: (ref) => {
        const selector = parseVscodeModelId(ref);
        return selector ? new LanguageModelProvider(ref, selector) : undefined;
      },
    }),
  );
}

export async function reportTest(test: ModelTestResult, madeDefault: boolean, offerAgent: boolean): Promise<void> {
  if (test.ok) {
    const note = madeDefault ? ' It is now the default model chain.' : '';
    const message = `Pepe: model ${test.model} answered in ${test.ms} ms ("${test.text.slice(0, 60)}").${note}`;
    if (!offerAgent) return void vscode.window.showInformationMessage(message);
    const choice = await vscode.window.showInformationMessage(message, 'Add Agent…');
    if (choice) await vscode.commands.executeCommand('pepe.agent.add', { model: test.model });
    return;
  }
  const actions = [...(test.keyEnv ? ['Set API Key…'] : []), 'Test Again', 'Open config.json'];
  const choice = await vscode.window.showErrorMessage(`Pepe: model ${test.model} is saved, but the test request failed: ${test.message}`, ...actions);
  if (choice === 'Set API Key…') await vscode.commands.executeCommand('pepe.apiKey.set', { name: test.keyEnv });
  else if (choice === 'Test Again') await vscode.commands.executeCommand('pepe.model.test', { id: test.model });
  else if (choice === 'Open config.json') await vscode.commands.executeCommand('pepe.config.open');
}

async function pickProvider(): Promise<Provider> {
  const items: (vscode.QuickPickItem & { value: Provider })[] = [
    { label: 'OpenAI', description: 'api.openai.com; needs an API key', value: 'openai' },
    { label: 'Anthropic', description: 'api.anthropic.com; needs an API key', value: 'anthropic' },
    { label: 'OpenAI-compatible server', description: 'Ollama, LM Studio, vLLM, OpenRouter… (base URL)', value: 'openai-compatible' },
    { label: 'VS Code language model', description: 'Copilot or another installed model provider; no key', value: 'vscode' },
  ];
  return (await pick(items, { title: `${TITLE}: provider`, placeHolder: 'who answers' })).value;
}

async function pickLanguageModel(): Promise<string> {
  let models: vscode.LanguageModelChat[] = [];
  try {
    models = await vscode.lm.selectChatModels();
  } catch {
    // no Language Model API provider
  }
  if (!models.length) throw new UsageError('no VS Code language model is installed (for example GitHub Copilot Chat); choose another provider');
  const seen = new Set<string>();
  const items = models
    .map((m) => ({ label: `vscode:${m.vendor}/${m.family}`, description: m.name }))
    .filter((i) => !seen.has(i.label) && seen.add(i.label));
  return (await pick(items, { title: `${TITLE}: VS Code language model`, placeHolder: 'model' })).label;
}

/** The key: stored under `api_key_env` (vendor default name, or one derived from the model id). */
async function askKey(
  ctx: CommandContext,
  provider: Exclude<Provider, 'vscode'>,
  id: string,
  args: { apiKeyEnv?: string; apiKey?: string },
  interactive: boolean,
): Promise<{ env: string; value: string } | undefined> {
  const env = args.apiKeyEnv ?? (provider === 'openai-compatible' ? `${id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY` : DEFAULTS[provider].keyEnv);
  if (args.apiKey !== undefined) return { env, value: args.apiKey };
  // A caller passing arguments without a key: the variable only (its key is set elsewhere), or,
  // for a server that needs none, no key at all. Only a person is asked.
  if (args.apiKeyEnv || !interactive) return provider === 'openai-compatible' && !args.apiKeyEnv ? undefined : { env, value: '' };
  const stored = await ctx.apiKeys.has(env);
  const value = await vscode.window.showInputBox({
    title: `${TITLE}: API key`,
    prompt:
      provider === 'openai-compatible'
        ? `Leave empty when the server needs no key (Ollama, LM Studio). Stored in VS Code's secret storage as ${env}.`
        : `${stored ? `A key for ${env} is already stored: leave empty to keep it. ` : ''}Stored in VS Code's secret storage as ${env}, never in config.json.`,
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) throw new Cancelled();
  if (!value) return provider === 'openai-compatible' ? undefined : { env, value: '' };
  return { env, value };
}

function suggestId(model: string, existing: Set<string>): string {
  const base = model.replace(/^.*\//, '').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 60) || 'model';
  let id = base;
  for (let i = 2; existing.has(id); i++) id = `${base}-${i}`;
  return id;
}

function validUrl(v: string): string | undefined {
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'an http:// or https:// URL';
  } catch {
    return 'a URL such as http://localhost:11434/v1';
  }
}

/** Test Model…: the same test request as Add Model, for a model already in config.json. */
export async function modelTest(ctx: CommandContext, raw: unknown): Promise<ModelTestResult> {
  const args = parseArgs(ModelTestArgs, 'pepe.model.test', raw);
  const pepe = await ctx.host.get();
  const ids = Object.keys(pepe.config.models ?? {});
  if (!args.id && !ids.length) throw new UsageError('there are no models in config.json yet; add one with Pepe: Add Model…');
  const id = args.id ?? (await pick(ids.map((m) => ({ label: m, description: pepe.config.models![m]!.model })), { title: 'Pepe: Test Model', placeHolder: 'model' })).label;
  const test = await runTest(pepe, id);
  ctx.log.info(`model ${id} test: ${test.ok ? `answered in ${test.ms} ms` : test.message}`);
  void reportTest(test, false, false);
  return test;
}

/** Open config.json (at a line and column when given, e.g. where a problem was reported). */
export async function configOpen(ctx: CommandContext, raw: unknown): Promise<unknown> {
  const args = parseArgs(ConfigOpenArgs, 'pepe.config.open', raw);
  const pepe = await ctx.host.get();
  const uri = vscode.Uri.file(pepe.paths.config);
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await pepe.configCreate();
  }
  await linkConfigSchema(pepe).catch((e: unknown) => ctx.log.warn(`config schema: ${String(e)}`));
  const doc = await vscode.workspace.openTextDocument(uri);
  const position = new vscode.Position(Math.max(0, (args.line ?? 1) - 1), Math.max(0, (args.column ?? 1) - 1));
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(position, position), preview: false });
  return { path: pepe.paths.config };
}
