import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const RUNTIME = new URL('../../compiler/runtime', import.meta.url).pathname;
// handlebars has no "exports" map, so Node's ESM resolver needs the `.js` spelling. @opentelemetry/api is an
// optional peer, imported dynamically by usage-opentelemetry.ts only when a host asks for the sink.
const THIRD_PARTY = new Set(['handlebars/runtime', 'handlebars/runtime.js', '@opentelemetry/api']);

/** Specifiers each runtime file imports or re-exports, dynamic imports included. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(RUNTIME, file), 'utf8'), true, true);
  return info.importedFiles.map((imported) => imported.fileName);
}

/** Every runtime file reachable from `entries`, and every specifier found on the way. */
function closure(entries: string[]): { files: Set<string>; specifiers: Set<string> } {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of importsOf(file)) {
      specifiers.add(specifier);
      if (specifier.startsWith('./')) pending.push(specifier.slice(2).replace(/\.js$/, '.ts'));
    }
  }
  return { files, specifiers };
}

const runtimeFiles = readdirSync(RUNTIME).filter((file) => file.endsWith('.ts'));

describe('the runtime import closure', () => {
  it('holds only runtime files, node built-ins, handlebars/runtime and the optional @opentelemetry/api', () => {
    const { files, specifiers } = closure(runtimeFiles);
    for (const file of files) expect(runtimeFiles, `${file} is imported but not in compiler/runtime/`).toContain(file);
    const foreign = [...specifiers].filter(
      (s) => !/^\.\/[\w-]+\.js$/.test(s) && !THIRD_PARTY.has(s) && !(s.startsWith('node:') && builtinModules.includes(s.slice(5))),
    );
    expect(foreign).toEqual([]);
  });

  it('keeps node built-ins out of everything but the directory loader', () => {
    // The directory loader is load-bundle.ts and the file reader only it imports (any other importer would bring it back in).
    const loader = new Set(['load-bundle.ts', 'read-regular-file.ts', 'index.ts']);
    const { specifiers } = closure(runtimeFiles.filter((file) => !loader.has(file)));
    expect([...specifiers].filter((s) => s.startsWith('node:'))).toEqual([]);
  });

  it('is reachable from index.ts as a whole (no orphan runtime file)', () => {
    expect([...closure(['index.ts']).files].sort()).toEqual([...runtimeFiles].sort());
  });
});
