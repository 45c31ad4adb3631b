/**
 * `prompt-build lsp`: the language server over stdin and stdout, until the
 * editor sends `exit` (the server library then ends the process: 0 after
 * `shutdown`, 1 without). The project is the editor's workspace folder.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../../lsp/server.js';

export function runLsp(): Promise<number> {
  startServer(createConnection(ProposedFeatures.all, process.stdin, process.stdout));
  return new Promise<number>(() => {});
}
