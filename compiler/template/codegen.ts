/**
 * The ES module of a dynamic section (the `ThunkFactory` contract of
 * runtime/manifest.ts): `export default function create(rt)` returning
 * `render(ctx)`. It imports nothing and declares nothing outside `create`, so
 * the bundle can inline it as a function body. Required inputs are checked
 * first, so a missing one fails with a clear error before any output is built.
 */
import type { Program } from './ast.js';
import { precompileChecked } from './fallback.js';
import { compileRenderBody } from './fast-path.js';
import { parseOrThrow } from './parse.js';
import { preludeLines } from './prelude.js';
import { fallbackReasonOf } from './support.js';

export interface ThunkOptions {
  section: string;
  /** Top-level context names the template reads. */
  inputs: readonly string[];
  /** The inputs that may be missing; every other input is required. */
  optional: readonly string[];
}

/**
 * Source text of the ES module (deterministic: same input → same bytes).
 * Throws on an invalid template. `ast`: the template already parsed, if it was.
 */
export function generateThunkModule(source: string, options: ThunkOptions, ast: Program = parseOrThrow(source)): string {
  const reason = fallbackReasonOf(ast);
  const lines = reason === null ? fastModule(ast, options) : fallbackModule(source, ast, options, reason);
  return lines.join('\n') + '\n';
}

/** Why `source` takes the Handlebars runtime path instead of the fast path (`null`: it does not). Throws on an invalid template. */
export function fallbackReason(source: string): string | null {
  return fallbackReasonOf(parseOrThrow(source));
}

function fastModule(ast: Program, options: ThunkOptions): string[] {
  const body = compileRenderBody(ast, '      ', options.section);
  return [
    'export default function create(rt) {',
    `  // Section ${comment(JSON.stringify(options.section))}: its Handlebars template compiled to plain JavaScript.`,
    '  // Renders exactly what Handlebars.compile(template, { noEscape: true }) renders.',
    ...preludeLines(body.helpers, '  '),
    '  return function render(ctx) {',
    '    try {',
    ...requiredChecks(options, '      '),
    ...(body.temps.length > 0 ? [`      let ${body.temps.join(', ')};`] : []),
    ...body.lines,
    ...failed(options, '    '),
    '  };',
    '}',
  ];
}

function fallbackModule(source: string, ast: Program, options: ThunkOptions, reason: string): string[] {
  const spec = precompileChecked(source, ast, options.section);
  return [
    'export default function create(rt) {',
    `  // Section ${comment(JSON.stringify(options.section))}: Handlebars runtime fallback, because the template uses ${comment(reason)}.`,
    `  const template = rt.handlebars.template(${spec});`,
    '  return function render(ctx) {',
    '    try {',
    ...requiredChecks(options, '      '),
    '      return template(ctx);',
    ...failed(options, '    '),
    '  };',
    '}',
  ];
}

/** The end of the render's `try`: whatever else goes wrong (a throwing getter or lambda, a null context…) is a RenderError too. */
function failed(options: ThunkOptions, indent: string): string[] {
  return [`${indent}} catch (error) {`, `${indent}  throw rt.failed(${JSON.stringify(options.section)}, error);`, `${indent}}`];
}

function requiredChecks(options: ThunkOptions, indent: string): string[] {
  const optional = new Set(options.optional);
  const section = JSON.stringify(options.section);
  return options.inputs
    .filter((name) => !optional.has(name))
    .map((name) => `${indent}if (${member('ctx', name)} === undefined) rt.missing(${section}, ${JSON.stringify(name)});`);
}

function member(object: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}

/** Text for a `//` comment: names and reasons quote template text, and any line terminator would end the comment. */
function comment(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
