/**
 * What `prompt-build/context` pulls into a service (issue 13): its closure of
 * compiler modules and packages, held here and listed in docs/context.md, so a new
 * import is a visible decision. It stays free of the build pipeline: no
 * emitter, writer, watcher or CLI.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/tree.js';

const COMPILER = path.join(REPO, 'compiler');

/** Compiler files (relative to compiler/) and package specifiers reachable from `entry`, type-only imports left out. */
export function importClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(path.join(COMPILER, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const specifiers: string[] = [];
    const visit = (node: ts.Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly;
        if (!typeOnly) specifiers.push(node.moduleSpecifier.text);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!)) {
        specifiers.push((node.arguments[0] as ts.StringLiteral).text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    for (const s of specifiers) {
      if (s.startsWith('.')) pending.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), s)).replace(/\.js$/, '.ts'));
      else if (!s.startsWith('node:')) packages.add(s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!);
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

describe('the import closure of prompt-build/context', () => {
  it('holds the packages and modules docs/context.md lists, and no stage of the build', () => {
    const { files, packages } = importClosure('context/index.ts');
    expect(packages).toEqual(['gray-matter', 'handlebars', 'js-yaml', 'micromark', 'micromark-util-edit-map', 'picomatch', 'yaml']);
    // Beyond its own folder: the Markdown reader and the include resolver (instruction files are
    // Markdown with @includes), diagnostics, the option defaults (with the day the cache facts are judged on) and sha256, and the runtime (which loads
    // the bundle that words the data, and renders its texts) — no emitter, writer, watcher or CLI.
    expect(files).toContain('runtime/context-wording.ts');
    expect(files.filter((f) => !f.startsWith('context/') && !f.startsWith('runtime/'))).toEqual([
      'cache-facts/facts-age.ts',
      'core/hash.ts',
      'core/line-index.ts',
      'core/options.ts',
      'core/paths.ts',
      'core/source-dirs.ts',
      'diagnostics/diagnostics.ts',
      'include/include.ts',
      'markdown/block-cuts.ts',
      'markdown/lenient-yaml.ts',
      'markdown/micromark-edits.ts',
      'markdown/prose.ts',
      'markdown/scan-limits.ts',
      'markdown/scan.ts',
      'markdown/source.ts',
      'markdown/text-check.ts',
    ]);
  });
});
