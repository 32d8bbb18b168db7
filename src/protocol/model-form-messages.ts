import * as z from 'zod/mini';

/**
 * Every message between the model setup form (a webview) and its host, validated on both sides.
 * The form starts with `ready`; the host answers with `init`. A key typed into the form goes to
 * the host in `listModels`, `test` and `save` only; the host never sends a key back.
 */

export const FORM_PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'vscode'] as const;
export type FormProvider = (typeof FORM_PROVIDERS)[number];

export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The schemas, built on first use (nothing runs when the module loads). zod/mini, as in the chat
 * webview's protocol: the page's script carries a small zod, and only success or failure of a
 * parse is used (no error text reaches anyone).
 */
function build() {
  const provider = z.enum(FORM_PROVIDERS);
  const short = z.string().check(z.maxLength(2048));
  const key = z.string().check(z.maxLength(8192));
  /** What the person filled in. `apiKey` empty: keep the stored key (or none is needed). */
  const draft = z.object({ provider, baseUrl: z.optional(short), apiKey: z.optional(key), model: short, id: z.string().check(z.maxLength(64)) });
  const form = z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready') }),
    z.object({ type: z.literal('listModels'), seq: z.number(), provider, baseUrl: z.optional(short), apiKey: z.optional(key) }),
    z.object({ type: z.literal('test'), draft }),
    z.object({ type: z.literal('save'), draft }),
    z.object({ type: z.literal('addAgent') }),
    z.object({ type: z.literal('close') }),
  ]);
  const host = z.discriminatedUnion('type', [
    z.object({
      type: z.literal('init'),
      /** Ids already under "models" in config.json (a new one must differ). */
      existingIds: z.array(z.string()),
      /** Which key names already hold a key in secret storage. */
      storedKeys: z.array(z.string()),
      /** Whether config.json has no default model yet (the saved one becomes it). */
      firstModel: z.boolean(),
      /** Opened from Add Agent: saving returns there. */
      fromAddAgent: z.boolean(),
    }),
    z.object({ type: z.literal('models'), seq: z.number(), ok: z.boolean(), models: z.array(z.string()), message: z.optional(z.string()), source: z.optional(z.string()) }),
    z.object({ type: z.literal('testing') }),
    z.object({ type: z.literal('tested'), ok: z.boolean(), text: z.optional(z.string()), ms: z.number(), message: z.optional(z.string()), keyProblem: z.optional(z.boolean()) }),
    z.object({ type: z.literal('saved'), id: z.string(), madeDefault: z.boolean(), keyEnv: z.optional(z.string()) }),
    z.object({ type: z.literal('problem'), message: z.string() }),
  ]);
  return { draft, form, host };
}
type Schemas = ReturnType<typeof build>;
let built: Schemas | undefined;
const schemas = (): Schemas => (built ??= build());

export type Draft = z.infer<Schemas['draft']>;
export type FormMessage = z.infer<Schemas['form']>;
export type HostFormMessage = z.infer<Schemas['host']>;

export function isFormProvider(v: string): v is FormProvider {
  return (FORM_PROVIDERS as readonly string[]).includes(v);
}

export function parseFormMessage(raw: unknown): FormMessage | undefined {
  const r = schemas().form.safeParse(raw);
  return r.success ? r.data : undefined;
}

export function parseHostFormMessage(raw: unknown): HostFormMessage | undefined {
  const r = schemas().host.safeParse(raw);
  return r.success ? r.data : undefined;
}

/** The secret-storage name a model's key is kept under (config.json's api_key_env). */
export function keyEnvFor(provider: FormProvider, id: string): string | undefined {
  if (provider === 'openai') return 'OPENAI_API_KEY';
  if (provider === 'anthropic') return 'ANTHROPIC_API_KEY';
  if (provider === 'openai-compatible') return `${(id || 'model').toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_API_KEY`;
  return undefined;
}

/** A name for the model in Pepe, from the provider's model name, not yet taken. */
export function suggestModelId(model: string, existing: readonly string[]): string {
  const base = model.replace(/^.*\//, '').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 60) || 'model';
  let id = base;
  for (let i = 2; existing.includes(id); i++) id = `${base}-${i}`;
  return id;
}

/** What is wrong with a draft before it is sent (the same checks the host makes). */
export function draftProblem(d: Draft, existing: readonly string[]): string | undefined {
  if (d.provider === 'openai-compatible') {
    try {
      const u = new URL(d.baseUrl ?? '');
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'The server address must start with http:// or https://';
    } catch {
      return 'The server address is not a URL (for example http://localhost:11434/v1)';
    }
  }
  if (!d.model.trim()) return 'Choose a model';
  if (d.provider !== 'vscode') {
    if (!MODEL_ID_PATTERN.test(d.id)) return 'The name in Pepe: letters, digits, _ . - (up to 64)';
    if (existing.includes(d.id)) return `A model named "${d.id}" already exists`;
  }
  return undefined;
}
