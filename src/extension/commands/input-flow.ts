import * as vscode from 'vscode';
import { Cancelled } from './ui.js';

/**
 * A multi-step input on one quick-input object (issue 26): every step of a flow (Add Agent, Add
 * MCP Server…) reuses the same QuickPick, so the keyboard stays in it from step to step and the
 * steps are counted ("2/4"). A text step is the same box with the typed value offered as the one
 * choice; a problem with it is shown in place of that choice, and Enter does nothing then.
 * A secret (an API key) is the one step a QuickPick cannot take, since it cannot hide what is
 * typed: it is the flow's own InputBox in password mode, shown in the same place with the same
 * title and step count before the pick steps aside, so the keyboard never leaves the input.
 * Escape (or the box losing its last step) cancels the whole flow.
 */
export class InputFlow implements vscode.Disposable {
  private readonly box = vscode.window.createQuickPick<vscode.QuickPickItem>();
  private secretBox: vscode.InputBox | undefined;
  private step = 0;

  constructor(
    private readonly title: string,
    private totalSteps?: number,
  ) {
    this.box.ignoreFocusOut = true;
    this.box.title = title;
  }

  /** The count changes when a step turns out not to be needed (a remote server has no network step). */
  setTotalSteps(n: number): void {
    this.totalSteps = n;
  }

  /** One choice from `items`. */
  pick<T extends vscode.QuickPickItem>(items: readonly T[], opts: { placeholder: string; title?: string; active?: T; matchOnDescription?: boolean }): Promise<T> {
    return this.run<T>((box, done) => {
      box.canSelectMany = false;
      box.matchOnDescription = opts.matchOnDescription ?? true;
      box.placeholder = opts.placeholder;
      box.value = '';
      box.items = items;
      if (opts.active) box.activeItems = [opts.active];
      return [box.onDidAccept(() => {
        const picked = box.selectedItems[0] ?? box.activeItems[0];
        if (picked) done(picked as T);
      })];
    }, opts.title);
  }

  /** Several choices; `picked` items start ticked. */
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[], opts: { placeholder: string; title?: string }): Promise<T[]> {
    return this.run<T[]>((box, done) => {
      box.canSelectMany = true;
      box.placeholder = opts.placeholder;
      box.value = '';
      box.items = items;
      box.selectedItems = items.filter((i) => i.picked);
      return [box.onDidAccept(() => done([...box.selectedItems] as T[]))];
    }, opts.title);
  }

  /** A line of text; `validate` returns what is wrong with it, or undefined. */
  text(opts: { prompt: string; title?: string; value?: string; placeholder?: string; validate?: (v: string) => string | undefined }): Promise<string> {
    return this.run<string>((box, done) => {
      box.canSelectMany = false;
      box.matchOnDescription = false;
      box.placeholder = opts.placeholder ?? opts.prompt;
      const show = (v: string) => {
        const problem = v ? opts.validate?.(v) : undefined;
        box.items = !v ? [] : [problem ? { label: `$(error) ${problem}`, alwaysShow: true } : { label: v, description: `Enter to use this · ${opts.prompt}`, alwaysShow: true }];
      };
      box.value = opts.value ?? '';
      show(box.value);
      return [
        box.onDidChangeValue(show),
        box.onDidAccept(() => {
          const v = box.value;
          if (!opts.validate?.(v)) done(v);
        }),
      ];
    }, opts.title);
  }

  /** A secret line (an API key): typed hidden; Enter with nothing typed cancels the flow. */
  secret(opts: { prompt: string; title?: string; placeholder?: string }): Promise<string> {
    this.step += 1;
    const box = (this.secretBox ??= vscode.window.createInputBox());
    box.ignoreFocusOut = true;
    box.password = true;
    box.title = opts.title ?? this.title;
    box.prompt = opts.prompt;
    box.placeholder = opts.placeholder;
    box.value = '';
    box.step = this.totalSteps ? this.step : undefined;
    box.totalSteps = this.totalSteps;
    return new Promise<string>((resolve, reject) => {
      const subs: vscode.Disposable[] = [];
      const finish = (fn: () => void) => {
        for (const s of subs) s.dispose();
        fn();
      };
      subs.push(
        box.onDidAccept(() => {
          const v = box.value;
          finish(() => (v ? resolve(v) : reject(new Cancelled())));
        }),
        box.onDidHide(() => finish(() => reject(new Cancelled()))),
      );
      // Shown over the pick (the workbench swaps them in one widget), then the pick is let go.
      box.show();
    });
  }

  private run<T>(setup: (box: vscode.QuickPick<vscode.QuickPickItem>, done: (v: T) => void) => vscode.Disposable[], title?: string): Promise<T> {
    this.step += 1;
    const box = this.box;
    box.title = title ?? this.title;
    box.step = this.totalSteps ? this.step : undefined;
    box.totalSteps = this.totalSteps;
    box.busy = false;
    box.enabled = true;
    return new Promise<T>((resolve, reject) => {
      const subs: vscode.Disposable[] = [];
      const finish = (fn: () => void) => {
        for (const s of subs) s.dispose();
        fn();
      };
      subs.push(...setup(box, (v) => finish(() => resolve(v))), box.onDidHide(() => finish(() => reject(new Cancelled()))));
      box.show();
    });
  }

  /** Steps aside (another view takes over between steps); the next step shows the box again. */
  hide(): void {
    this.box.hide();
    this.secretBox?.hide();
  }

  dispose(): void {
    this.box.dispose();
    this.secretBox?.dispose();
  }
}

/** Runs `body` with a flow, disposing it afterwards (closing the box). */
export async function withFlow<T>(title: string, totalSteps: number | undefined, body: (flow: InputFlow) => Promise<T>): Promise<T> {
  const flow = new InputFlow(title, totalSteps);
  try {
    return await body(flow);
  } finally {
    flow.dispose();
  }
}
