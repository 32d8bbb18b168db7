import * as vscode from 'vscode';
import { webviewPage } from '../webview-page.js';

/** The chat webview's page (webview-page.ts: the strict CSP; images from the extension or data: URIs). */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewPage(webview, extensionUri, {
    title: 'Pepe Chat',
    styles: [
      ['dist', 'codicons', 'codicon.css'],
      ['media', 'chat.css'],
    ],
    script: ['dist', 'webview.js'],
    body: '<div id="app" class="app" aria-busy="true"></div>',
    images: true,
  });
}

/** Makes `panel` a chat: scripts on, command URIs off, resources only from the extension's dist/ and media/. */
export function showChatIn(panel: vscode.WebviewPanel, extensionUri: vscode.Uri): void {
  panel.webview.options = {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
  panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'pepe.svg');
  panel.webview.html = chatHtml(panel.webview, extensionUri);
}
