// The prompt-build extension: starts `prompt-build lsp --stdio` for the
// workspace's prompt set and lets VS Code's language client do the rest.
// The server is the project's own prompt-build (node_modules/.bin), so the
// editor says exactly what that version's build says.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function serverCommand(folder) {
  const configured = vscode.workspace.getConfiguration('prompt-build').get('command') || [];
  if (configured.length > 0) return { command: configured[0], args: [...configured.slice(1), 'lsp'] };
  const local = path.join(folder, 'node_modules', '.bin', process.platform === 'win32' ? 'prompt-build.cmd' : 'prompt-build');
  return { command: fs.existsSync(local) ? local : 'prompt-build', args: ['lsp'] };
}

async function activate(context) {
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) return;
  const { command, args } = serverCommand(folder.uri.fsPath);
  const serverOptions = { command, args, transport: TransportKind.stdio, options: { cwd: folder.uri.fsPath } };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'markdown' }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{md,markdown,mdx,txt,text}') },
  };
  client = new LanguageClient('prompt-build', 'prompt-build', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
