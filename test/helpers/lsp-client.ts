/** `prompt-build lsp` started as an editor starts it (the built CLI over stdio) with a JSON-RPC client, for tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { CLI_BIN } from './tree.js';

export interface PublishedDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  message: string;
  relatedInformation?: { message: string }[];
  data?: unknown;
}

export interface LspSession {
  rpc: MessageConnection;
  server: ChildProcess;
  /** The last diagnostics published per URI. */
  latest: Map<string, PublishedDiagnostic[]>;
  /** What the server logged (window/logMessage). */
  log: string[];
  uri(rel: string): string;
  /** Polls, with a deadline, until `ready` holds. */
  until(ready: () => boolean, what: string): Promise<void>;
  stop(): void;
}

/** Starts the server on `root` and initializes it. */
export async function startLsp(root: string): Promise<LspSession> {
  const server = spawn(process.execPath, [CLI_BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const rpc = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  const latest = new Map<string, PublishedDiagnostic[]>();
  const log: string[] = [];
  rpc.onNotification('window/logMessage', (m: { message: string }) => log.push(m.message));
  rpc.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: PublishedDiagnostic[] }) => latest.set(p.uri, p.diagnostics));
  rpc.listen();
  await rpc.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await rpc.sendNotification('initialized', {});
  return {
    rpc,
    server,
    latest,
    log,
    uri: (rel) => pathToFileURL(path.join(root, rel)).href,
    until: async (ready, what) => {
      const deadline = Date.now() + 20_000;
      while (!ready()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; published: ${JSON.stringify([...latest])}; logged: ${log.join(' | ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: () => {
      server.kill();
      rpc.dispose();
    },
  };
}
