import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * The chat webview's page: a strict Content-Security-Policy with a fresh nonce per page. Only our
 * own bundle runs (script-src nonce); styles and the codicon font come from the extension's own
 * folders; images only from there or data: URIs (model output cannot load remote images); no
 * connect-src, so the page cannot talk to the network.
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
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
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'chat.css')}">
<title>Pepe Chat</title>
</head>
<body>
<div id="app" class="app" aria-busy="true"></div>
<script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}
