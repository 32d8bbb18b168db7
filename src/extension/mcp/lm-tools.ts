import * as vscode from 'vscode';
import type { Pepe } from '../../core/pepe.js';

/**
 * Gives Pepe's agents VS Code's own tools (`vscode.lm.tools`: the editor's MCP servers and other
 * extensions' tools), for the agents granted them (`vscode:<tool>` in an agent's `mcp` list). Each
 * call still goes through Pepe's barrier, and VS Code may ask too.
 */
export function attachVsCodeTools(pepe: Pepe): void {
  const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
  if (!lm?.tools || typeof lm.invokeTool !== 'function') return;
  pepe.setMcpHostTools({
    list: () => (vscode.lm.tools ?? []).map((t) => ({ name: t.name, description: t.description, ...(t.inputSchema ? { inputSchema: t.inputSchema as Record<string, unknown> } : {}) })),
    async invoke(name, input, signal) {
      const cts = new vscode.CancellationTokenSource();
      const cancel = () => cts.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
        const text = result.content
          .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : part instanceof vscode.LanguageModelPromptTsxPart ? JSON.stringify(part.value) : '[content that is not text]'))
          .join('\n');
        return { text };
      } finally {
        signal.removeEventListener('abort', cancel);
        cts.dispose();
      }
    },
  });
}
