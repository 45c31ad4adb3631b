/**
 * The folders of `compiler/` form layers, and imports run only downward
 * (ARCHITECTURE.md, "Layers"): a folder may import from a lower layer, never
 * from its own layer's other folders or from above. That is what lets a
 * reader learn the code bottom up, the runtime ship alone, and a language
 * server or a plugin take one layer without the ones above it. A circle
 * between folders always holds an import that runs up, so it fails here too.
 * Type-only imports count: a type is a dependency of the reader's mind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/tree.js';

const COMPILER = path.join(REPO, 'compiler');

/** Bottom to top. `.` is `compiler/index.ts`, the package's entry. */
export const LAYERS: readonly (readonly string[])[] = [
  ['runtime'], // the bundle contract and the loader: ships alone
  ['diagnostics'], // errors as data
  ['cache-facts'], // providers' sourced facts
  ['core'], // options and limits, source folders, hashing, line index, the tool's version
  ['markdown', 'template'], // one source file; Handlebars analysis and code generation
  ['tokens', 'include', 'unified'], // token counters; @include; prompt sources as mdast (for plugins)
  ['definitions', 'config', 'context'],
  ['link'], // stage 5
  ['bundle'], // stage 6: emit
  ['incremental', 'lint'], // what a Compiler keeps between builds; the built-in rules and the plugins' run
  ['write'], // stage 7: the writer and its safety
  ['pipeline'], // the driver: the stages in order, the up-to-date shortcut, check
  ['report', 'watch', 'lsp', 'usage'], // usage: the data of `prompt-build usage`
  ['cli'],
  ['.'],
];

export interface Import {
  from: string;
  to: string;
}

/** Every relative import, export-from, `import()` and `new URL(…, import.meta.url)` of every file under `compiler/`, as paths relative to it. */
export function compilerImports(root = COMPILER): Import[] {
  const imports: Import[] = [];
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!/\.m?ts$/.test(file)) continue;
    const rel = file.split(path.sep).join('/');
    const source = ts.createSourceFile(rel, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const add = (specifier: string): void => {
      if (specifier.startsWith('.')) imports.push({ from: rel, to: path.posix.normalize(path.posix.join(path.posix.dirname(rel), specifier)) });
    };
    const visit = (node: ts.Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text);
      else if ((ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) || (ts.isNewExpression(node) && node.expression.getText() === 'URL')) {
        const first = node.arguments?.[0];
        if (first && ts.isStringLiteralLike(first)) add(first.text);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) add(node.argument.literal.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return imports;
}

export const folderOf = (rel: string): string => (rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.');

/** The imports that do not run downward, as `from → to (from's layer → to's layer)`. */
export function wrongWay(imports: readonly Import[], layers = LAYERS): string[] {
  const layerOf = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const out: string[] = [];
  for (const { from, to } of imports) {
    const [a, b] = [folderOf(from), folderOf(to)];
    if (a === b) continue;
    const [la, lb] = [layerOf.get(a)!, layerOf.get(b)!];
    if (lb >= la) out.push(`${from} → ${to} (${a} is layer ${la}, ${b} is layer ${lb}${lb === la ? ': the same layer' : ''})`);
  }
  return out.sort();
}

describe('the layers of compiler/', () => {
  const imports = compilerImports();

  it('places every folder in a layer', () => {
    const folders = readdirSync(COMPILER, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !LAYERS.flat().includes(f))).toEqual([]);
    expect(LAYERS.flat().filter((f) => f !== '.' && !folders.includes(f))).toEqual([]);
  });

  it('reads every kind of import (a check that saw none would pass anything)', () => {
    const seen = (from: string, to: string) => imports.some((i) => i.from === from && i.to === to);
    expect(seen('pipeline/project.ts', 'pipeline/compiler.js')).toBe(true); // import()
    expect(seen('incremental/parse-pool.ts', 'incremental/parse-worker.js')).toBe(true); // new URL()
    expect(imports.length).toBeGreaterThan(400);
  });

  it('has no import running up or across a layer', () => {
    expect(wrongWay(imports)).toEqual([]);
  });

  it('is the layer table of ARCHITECTURE.md, row for row', () => {
    const rows = [...readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8').matchAll(/^\| (\d+) \| `([\w.-]+)\/?` \|/gm)];
    const documented: string[][] = [];
    for (const [, layer, folder] of rows) (documented[Number(layer)] ??= []).push(folder === 'index.ts' ? '.' : folder!);
    expect(documented).toEqual(LAYERS);
  });

  it('fails on an import added upward on purpose, and on a circle between folders', () => {
    expect(wrongWay([...imports, { from: 'markdown/scan.ts', to: 'bundle/emit.js' }])).toEqual(['markdown/scan.ts → bundle/emit.js (markdown is layer 4, bundle is layer 8)']);
    const circle = [
      { from: 'tokens/a.ts', to: 'include/b.js' },
      { from: 'include/b.ts', to: 'tokens/a.js' },
    ];
    expect(wrongWay(circle)).toHaveLength(2);
  });
});
