import * as vscode from 'vscode';
import type { ModelConfig } from '../../core/config/schema.js';
import { UsageError } from '../../core/errors.js';
import { testModel, type ModelTestResult } from '../../core/models/test-request.js';
import type { Pepe } from '../../core/pepe.js';
import { linkConfigSchema } from '../host/config-schema-link.js';
import { openModelForm } from '../models/model-form.js';
import { LanguageModelProvider, parseVscodeModelId } from '../models/lm-provider.js';
import { ConfigOpenArgs, ModelAddArgs, ModelTestArgs, parseArgs } from './args.js';
import type { CommandContext } from './command-context.js';
import { keyEnvFor, suggestModelId } from '../../protocol/model-form-messages.js';
import { Cancelled, pick } from './ui.js';

type Provider = 'openai' | 'openai-compatible' | 'anthropic' | 'vscode';

const DEFAULTS: Record<'openai' | 'anthropic', { model: string }> = {
  openai: { model: 'gpt-4o-mini' },
  anthropic: { model: 'claude-sonnet-4-5' },
};

export interface ModelAddResult {
  id: string;
  model?: ModelConfig;
  /** True when default_model_chain was unset and now names this model. */
  madeDefault: boolean;
  test?: ModelTestResult;
}

/**
 * Add Model (spec 4.2). Run by a person (no arguments): the model setup form, which resolves with
 * the saved model's id. With arguments (the form's Save, tests, other extensions): provider →
 * model → key (SecretStorage, under the model's api_key_env) → one real test request unless
 * skipped. The model is saved before the test, so a failed test loses nothing.
 */
export async function modelAdd(ctx: CommandContext, raw: unknown, opts: { fromAddAgent?: boolean } = {}): Promise<ModelAddResult> {
  const args = parseArgs(ModelAddArgs, 'pepe.model.add', raw);
  const interactive = raw === undefined || raw === null;
  const pepe = await ctx.host.get();
  if (ctx.host.configProblem) throw new UsageError(`config.json has a problem; fix it first: ${ctx.host.configProblem}`);
  if (interactive) {
    // A person: the model setup form (one page, the server's own model list, Test and Save).
    const id = await openModelForm(ctx, (saveArgs) => modelAdd(ctx, saveArgs), opts);
    if (!id) throw new Cancelled();
    return { id, madeDefault: false };
  }
  if (!args.provider) throw new UsageError('pepe.model.add: give "provider" (or run the command without arguments for the form)');
  const provider: Provider = args.provider;

  let id: string;
  let model: ModelConfig | undefined;
  let key: { env: string; value: string } | undefined;
  if (provider === 'vscode') {
    if (!args.model) throw new UsageError('pepe.model.add: give "model" as <vendor>/<family>');
    id = `vscode:${args.model}`;
    if (!parseVscodeModelId(id)) throw new UsageError(`"${id}" is not a VS Code language model id (vscode:<vendor>/<family>)`);
  } else {
    const existing = new Set(Object.keys(pepe.config.models ?? {}));
    if (provider === 'openai-compatible' && !args.baseUrl) throw new UsageError('pepe.model.add: an OpenAI-compatible server needs "baseUrl"');
    const name = args.model ?? (provider === 'openai-compatible' ? undefined : DEFAULTS[provider].model);
    if (!name?.trim()) throw new UsageError('pepe.model.add: give "model", the name the server knows');
    id = args.id ?? suggestModelId(name.trim(), [...existing]);
    if (existing.has(id)) throw new UsageError(`model "${id}" already exists in config.json; choose another name`);
    key = keyFor(provider, id, args);
    model = { provider, model: name.trim(), ...(args.baseUrl ? { base_url: args.baseUrl } : {}), ...(key ? { api_key_env: key.env } : {}) };
  }

  // Written before the test so nothing is lost when it fails; the key goes to SecretStorage only.
  const madeDefault = await pepe.modelAdd(id, model);
  await ctx.host.reload();
  await linkConfigSchema(pepe).catch((e: unknown) => ctx.log.warn(`config schema: ${String(e)}`));
  if (key?.value) await ctx.apiKeys.set(key.env, key.value); // overlays it before returning
  ctx.refresh();
  ctx.log.info(`model ${id} added${madeDefault ? ' (now the default model)' : ''}`);

  const result: ModelAddResult = { id, ...(model ? { model } : {}), madeDefault };
  if (args.skipTest) return result;
  result.test = await runTest(pepe, id);
  ctx.log.info(`model ${id} test: ${result.test.ok ? `answered in ${result.test.ms} ms` : result.test.message}`);
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
    const note = madeDefault ? ' It is now the default model.' : '';
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

/**
 * The key a caller passed: stored under `api_key_env` (the vendor's usual name, or one derived from
 * the model id). Without a key: the variable alone (its key is set elsewhere), or, for a server
 * that needs none, no key at all.
 */
function keyFor(provider: Exclude<Provider, 'vscode'>, id: string, args: { apiKeyEnv?: string; apiKey?: string }): { env: string; value: string } | undefined {
  const env = args.apiKeyEnv ?? keyEnvFor(provider, id)!;
  if (args.apiKey !== undefined) return { env, value: args.apiKey };
  return provider === 'openai-compatible' && !args.apiKeyEnv ? undefined : { env, value: '' };
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
