/**
 * The helpers a fast-path thunk defines inside `create(rt)`: each one the
 * JavaScript twin of a piece of Handlebars' runtime (named in its comment),
 * with default runtime options. A module only carries the helpers it calls.
 */

export type Helper = 'NC' | 'own' | 'OP' | 'gp' | 'isArray' | 'lp' | 'lf' | 'fv' | 'truthy' | 'present' | 'entries' | 'push' | 'amb';

interface Definition {
  needs: Helper[];
  lines: string[];
}

// Order of emission: every helper after those it needs.
const DEFINITIONS: [Helper, Definition][] = [
  [
    'NC',
    {
      needs: [],
      // container.nullContext: `this` inside a block when the context is null.
      lines: ['const NC = Object.seal({});'],
    },
  ],
  ['own', { needs: [], lines: ['const own = Object.prototype.hasOwnProperty;'] }],
  ['OP', { needs: [], lines: ['const OP = Object.prototype;'] }],
  ['gp', { needs: [], lines: ['const gp = Object.getPrototypeOf;'] }],
  ['isArray', { needs: [], lines: ['const isArray = Array.isArray;'] }],
  [
    'lp',
    {
      needs: ['own'],
      // `p != null ? lookupProperty(p, k) : p`: own properties only, and never a prototype's own constructor.
      // Lookups of other keys are written out inline (see fast-path.ts).
      lines: [
        'function lp(p, k) {',
        '  if (p == null) return p;',
        '  const v = p[k];',
        '  if (v == null) return v;',
        '  return own.call(p, k) && !(k === "constructor" && typeof v === "function" && v.prototype === p) ? v : undefined;',
        '}',
      ],
    },
  ],
  [
    'lf',
    {
      needs: ['lp'],
      // Data paths (`@root.x`) chain with `&&`, so a falsy segment is the result.
      lines: ['function lf(p, k) {', '  return p && lp(p, k);', '}'],
    },
  ],
  [
    'fv',
    {
      needs: [],
      // The built-in block helpers call a function parameter with `this`.
      lines: ['function fv(v, self) {', '  return typeof v === "function" ? v.call(self) : v;', '}'],
    },
  ],
  [
    'truthy',
    {
      needs: ['isArray'],
      // #if: falsy values and empty arrays take the inverse.
      lines: ['function truthy(v) {', '  return !!v && !(isArray(v) && v.length === 0);', '}'],
    },
  ],
  [
    'present',
    {
      needs: ['isArray'],
      // !Utils.isEmpty: what #with and #if includeZero=true test; 0 is present.
      lines: ['function present(v) {', '  return (!!v || v === 0) && !(isArray(v) && v.length === 0);', '}'],
    },
  ],
  [
    'entries',
    {
      needs: [],
      // #each over a non-array object: an iterable in order (keys are indexes), else Object.keys.
      lines: [
        'function entries(o) {',
        '  if (o[Symbol.iterator]) return [null, Array.from(o)];',
        '  const keys = Object.keys(o);',
        '  return [keys, keys.map((key) => o[key])];',
        '}',
      ],
    },
  ],
  [
    'push',
    {
      needs: ['NC'],
      // wrapProgram: a block's context joins `depths` unless it equals (!=) the current one.
      lines: [
        'function push(c, d) {',
        '  return c != d[0] && !(c === NC && d[0] === null) ? [c].concat(d) : d;',
        '}',
      ],
    },
  ],
  [
    'amb',
    {
      needs: [],
      // invokeAmbiguous: a function found for a bare {{name}} is called as a helper.
      lines: [
        'function amb(f, self, name, data, line, column, endLine, endColumn) {',
        '  const loc = { start: { line, column }, end: { line: endLine, column: endColumn } };',
        '  return f.call(self, { name, hash: {}, data, loc });',
        '}',
      ],
    },
  ],
];

/** The definitions of `used` and of what they need, in dependency order, indented. */
export function preludeLines(used: ReadonlySet<Helper>, indent: string): string[] {
  const needed = new Set<Helper>();
  const add = (helper: Helper): void => {
    if (needed.has(helper)) return;
    needed.add(helper);
    for (const dependency of definitionOf(helper).needs) add(dependency);
  };
  for (const helper of used) add(helper);
  return DEFINITIONS.filter(([name]) => needed.has(name)).flatMap(([, definition]) => definition.lines.map((line) => indent + line));
}

function definitionOf(helper: Helper): Definition {
  const found = DEFINITIONS.find(([name]) => name === helper);
  if (!found) throw new Error(`unknown thunk helper ${helper}`);
  return found[1];
}
