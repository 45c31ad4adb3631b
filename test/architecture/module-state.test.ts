/**
 * No module-level mutable state in compiler/ (issue 13): state that lives
 * across builds belongs to a `Compiler` (or another instance) and is passed
 * explicitly, so two compilers in one process share nothing. A top-level
 * `let`/`var`, or a top-level constant holding a fresh Map, Set, WeakMap,
 * WeakSet or an empty array or object (a cache waiting to be filled), fails;
 * a lookup table declared `ReadonlySet`/`ReadonlyMap` is a constant.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/tree.js';

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef']);

/** Every finding in one file's text, as `file:line: what`. */
export function moduleState(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const constant = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(source);
      if (!constant) {
        at(declaration, `top-level ${list.flags & ts.NodeFlags.Let ? 'let' : 'var'} ${name}`);
        continue;
      }
      if (declaration.type?.getText(source).startsWith('Readonly')) continue;
      let init = declaration.initializer;
      while (init && (ts.isAsExpression(init) || ts.isParenthesizedExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      if (!init) continue;
      if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && COLLECTIONS.has(init.expression.text)) at(declaration, `top-level ${name} = new ${init.expression.text}`);
      if (ts.isArrayLiteralExpression(init) && init.elements.length === 0) at(declaration, `top-level ${name} = []`);
      if (ts.isObjectLiteralExpression(init) && init.properties.length === 0) at(declaration, `top-level ${name} = {}`);
    }
  }
  return found;
}

function sourcesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f))
    .sort();
}

describe('module-level state', () => {
  it('compiler/ holds none', () => {
    const findings = sourcesUnder(path.join(REPO, 'compiler')).flatMap((file) => moduleState(path.relative(REPO, file), fs.readFileSync(file, 'utf8')));
    expect(findings).toEqual([]);
  });

  it('the check finds each kind it looks for', () => {
    const text = ['let a = 1;', 'var b = 2;', 'const c = new Map<string, number>();', 'const d = new WeakMap();', 'const e: string[] = [];', 'const f = {};', 'const g = [1] as const;', 'const h = Object.freeze({ x: 1 });', 'const t: ReadonlySet<string> = new Set(["a"]);', 'function k() { let x = 1; return x; }'].join('\n');
    expect(moduleState('x.ts', text)).toEqual(['x.ts:1: top-level let a', 'x.ts:2: top-level var b', 'x.ts:3: top-level c = new Map', 'x.ts:4: top-level d = new WeakMap', 'x.ts:5: top-level e = []', 'x.ts:6: top-level f = {}']);
  });
});
