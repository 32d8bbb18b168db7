import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** One of the extension's webview pages: its title, style sheets, script and fixed markup. */
export interface PageParts {
  title: string;
  /** Style sheets, each as a path under the extension's folder. */
  styles: string[][];
  /** The page's one script, a path under the extension's folder. */
  script: string[];
  /** Fixed markup (nothing from config.json, a model or a server is put into it). */
  body: string;
  /** Images from the extension's own folders and data: URIs (the chat shows sent images). */
  images?: boolean;
}

/**
 * A webview page with a strict Content-Security-Policy and a fresh nonce per page: only our own
 * bundle runs (script-src nonce); styles and the codicon font come from the extension's own
 * folders; images, when allowed, only from there or data: URIs (model output cannot load remote
 * images); no connect-src, so the page cannot talk to the network.
 */
export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, parts: PageParts): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    ...(parts.images ? [`img-src ${webview.cspSource} data:`] : []),
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${parts.styles.map((s) => `<link rel="stylesheet" href="${asset(s)}">`).join('\n')}
<title>${parts.title}</title>
</head>
<body>
${parts.body}
<script nonce="${nonce}" src="${asset(parts.script)}"></script>
</body>
</html>`;
}
