/**
 * `prompt-build lsp`: the language server. It runs the build's own
 * `Compiler` over the workspace (one per root, its config read as `build`
 * reads it), with the editor's unsaved buffers in place of the files, and
 * publishes what the build says for every file a change reaches. A request
 * that fails answers with an error; the server lives on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TextDocuments, TextDocumentSyncKind, type Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isInside, realish } from '../core/paths.js';
import { readDocument, type PromptDocument } from './document.js';
import { completionsAt, definitionAt, documentLinks, documentSymbols, hoverAt, profileLenses, referencesTo, toProtocolDiagnostic, uriOf } from './features.js';
import type { QuickFix } from './quick-fixes.js';
import { Workspace, type WorkspaceBuild } from './workspace.js';

/** How long edits settle before a build: typing is a burst of changes, and each build answers them all. */
const SETTLE_MS = 20;
/** How long edits pause before lint runs: its built-in rules read the whole project (docs/lint.md). */
const LINT_SETTLE_MS = 300;

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let workspace: Workspace | null = null;
  let last: WorkspaceBuild | null = null;
  /** What was last published per file, as sent: a build sends only what changed, and clears what is gone. */
  let published = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let lintTimer: NodeJS.Timeout | null = null;

  const fileOf = (uri: string): string | null => {
    if (!uri.startsWith('file:')) return null;
    const file = fileURLToPath(uri);
    try {
      return fs.realpathSync.native(file);
    } catch {
      return file;
    }
  };

  const publish = async (build: WorkspaceBuild): Promise<void> => {
    if (!workspace) return;
    last = build;
    const now = new Map<string, string>();
    for (const [file, list] of build.diagnostics) {
      if (!workspace.holds(file)) continue;
      // Compared as the build words them: the file is read (for ranges and fixes) only when they changed.
      const key = list.map((d) => `${d.severity} ${d.rule} ${d.line}:${d.column} ${d.message}\0${d.note ?? ''}`).join('\n');
      now.set(file, key);
      if (published.get(file) === key) continue;
      const lines = workspace.textOf(file)?.split('\n') ?? null;
      await connection.sendDiagnostics({ uri: uriOf(file), diagnostics: list.map((d) => toProtocolDiagnostic(d, file, lines)) });
    }
    for (const file of published.keys()) if (!now.has(file)) await connection.sendDiagnostics({ uri: uriOf(file), diagnostics: [] });
    published = now;
  };

  // Each log line is for the editor's log, and for the benchmark that times an edit to its answer.
  const rebuild = async (): Promise<void> => {
    if (!workspace) return;
    const started = performance.now();
    await publish(await workspace.build());
    connection.console.log(`prompt-build: built in ${Math.round(performance.now() - started)} ms`);
    if (lintTimer) clearTimeout(lintTimer);
    lintTimer = setTimeout(() => {
      lintTimer = null;
      relint().catch((error: unknown) => connection.console.error(`prompt-build: lint failed: ${String(error)}`));
    }, LINT_SETTLE_MS);
  };
  const relint = async (): Promise<void> => {
    if (!workspace) return;
    const started = performance.now();
    await publish(await workspace.lint());
    connection.console.log(`prompt-build: linted in ${Math.round(performance.now() - started)} ms`);
  };

  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    if (lintTimer) clearTimeout(lintTimer);
    lintTimer = null;
    timer = setTimeout(() => {
      timer = null;
      rebuild().catch((error: unknown) => connection.console.error(`prompt-build: the build failed: ${String(error)}`));
    }, SETTLE_MS);
  };

  /** The prompt file behind a request, read from the editor's text; null for anything else. */
  const documentAt = (uri: string): PromptDocument | null => {
    const file = fileOf(uri);
    if (!workspace || file === null || !workspace.holds(file)) return null;
    const text = documents.get(uri)?.getText() ?? workspace.textOf(file);
    const included = new Set(Object.keys(last?.manifest?.sources ?? {}));
    return text === null ? null : readDocument(file, text, workspace.options, included);
  };
  const offsetIn = (doc: PromptDocument, uri: string, position: { line: number; character: number }): number => {
    // Positions are the editor's; the document is read with LF line ends (readDocument), so count in its text.
    const lines = doc.text.split('\n');
    let offset = 0;
    for (let l = 0; l < position.line && l < lines.length; l++) offset += lines[l]!.length + 1;
    return Math.min(offset + position.character, doc.text.length);
  };

  connection.onInitialize(async (params) => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    const root = folder ? fileURLToPath(folder) : null;
    if (root !== null && fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) workspace = await Workspace.open(root);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        definitionProvider: true,
        referencesProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['@', '/', '{', ' ', '-'] },
        codeLensProvider: { resolveProvider: false },
        documentLinkProvider: { resolveProvider: false },
        documentSymbolProvider: true,
      },
      serverInfo: { name: 'prompt-build' },
    };
  });
  connection.onInitialized(() => schedule());

  documents.onDidChangeContent(({ document }) => {
    const file = fileOf(document.uri);
    if (!workspace || file === null || !workspace.holds(file)) return;
    workspace.edit(file, document.getText());
    schedule();
  });
  documents.onDidClose(({ document }) => {
    const file = fileOf(document.uri);
    if (!workspace || file === null) return;
    workspace.close(file);
    schedule();
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      const file = fileOf(change.uri);
      if (workspace && file !== null && workspace.holds(file)) workspace.changedOnDisk(file);
    }
    schedule();
  });

  connection.onDefinition(({ textDocument, position }) => {
    const doc = documentAt(textDocument.uri);
    if (!doc || !workspace) return null;
    const constantAt = (name: string) => {
      const at = workspace!.constantAt(name);
      return at && { uri: uriOf(at.file), range: { start: { line: at.line - 1, character: at.column - 1 }, end: { line: at.line - 1, character: at.column - 1 + name.length } } };
    };
    return definitionAt(doc, offsetIn(doc, textDocument.uri, position), (name) => workspace!.sectionFile(name), constantAt);
  });
  connection.onReferences(({ textDocument }) => {
    const doc = documentAt(textDocument.uri);
    if (!doc || !workspace) return [];
    const ws = workspace;
    return referencesTo(doc.rel, last?.manifest ?? null, ws.root, (file) => {
      const text = documents.get(uriOf(file))?.getText() ?? ws.textOf(file);
      return text === null ? null : readDocument(file, text, ws.options, new Set(Object.keys(last?.manifest?.sources ?? {})));
    });
  });
  connection.onCodeAction(({ textDocument, context }) =>
    context.diagnostics.flatMap((diagnostic) => {
      const fix = (diagnostic.data as { fix?: QuickFix } | undefined)?.fix;
      return fix ? [{ title: fix.title, kind: 'quickfix', diagnostics: [diagnostic], isPreferred: true, edit: { changes: { [textDocument.uri]: fix.edits } } }] : [];
    }),
  );
  connection.onHover(({ textDocument, position }) => {
    const doc = documentAt(textDocument.uri);
    if (!doc || !workspace) return null;
    const value = hoverAt(doc, offsetIn(doc, textDocument.uri, position), last?.manifest ?? null, workspace.options, sizeOf);
    return value === null ? null : { contents: { kind: 'markdown', value } };
  });
  connection.onCompletion(({ textDocument, position }) => {
    const doc = documentAt(textDocument.uri);
    if (!doc || !workspace) return [];
    const includer = path.dirname(doc.file);
    const root = realish(workspace.root);
    // Only folders of the project: the typed text may climb out of it (`@../../../`) or lead out through a symlink.
    const near = (dir: string) => {
      const real = realish(path.resolve(includer, dir));
      return isInside(root, real) ? filesIn(real, workspace!.options.extensions) : [];
    };
    return completionsAt(doc, offsetIn(doc, textDocument.uri, position), workspace.sectionNames(), near).map((c) => ({
      label: c.label,
      ...(c.detail ? { detail: c.detail } : {}),
      ...(c.documentation ? { documentation: c.documentation } : {}),
    }));
  });
  connection.onCodeLens(({ textDocument }) => {
    const doc = documentAt(textDocument.uri);
    if (!doc || !workspace) return [];
    return profileLenses(doc, last?.manifest ?? null, workspace.options).map((l) => ({ range: l.range, command: { title: l.title, command: '' } }));
  });
  connection.onDocumentLinks(({ textDocument }) => {
    const doc = documentAt(textDocument.uri);
    return doc ? documentLinks(doc) : [];
  });
  connection.onDocumentSymbol(({ textDocument }) => {
    const doc = documentAt(textDocument.uri);
    return doc ? documentSymbols(doc) : [];
  });

  documents.listen(connection);
  connection.listen();
}

function sizeOf(file: string): number | null {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? null;
}

/** The includable files and folders in `dir`, for completing a path after `@`. */
function filesIn(dir: string, extensions: readonly string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => (e.isDirectory() && !e.name.startsWith('.')) || (e.isFile() && extensions.includes(path.extname(e.name).toLowerCase())))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}
