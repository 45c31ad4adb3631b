/**
 * Checking a loaded config against the shape of `ProjectConfig`: every
 * unknown key and wrong type found at once, each with the key path it is at,
 * so the caller can point at the line that wrote it.
 */
import { RULES } from '../diagnostics/diagnostics.js';
import { closest } from '../diagnostics/did-you-mean.js';
import type { ProjectConfig } from './define-config.js';
import { normaliseSourceDir } from '../build/source-dirs.js';

export interface ConfigProblem {
  rule: 'config/unknown-key' | 'config/invalid-value';
  /** Keys from the top of the config down to the offending one. */
  keyPath: string[];
  message: string;
  note?: string;
}

type Check = (value: unknown, at: string[], problems: ConfigProblem[]) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function invalid(problems: ConfigProblem[], at: string[], message: string, note?: string): void {
  problems.push({ rule: 'config/invalid-value', keyPath: at, message: `${at.join('.')}: ${message}`, ...(note === undefined ? {} : { note }) });
}

const string: Check = (v, at, p) => {
  if (typeof v !== 'string' || v === '') invalid(p, at, `must be a non-empty string, not ${shown(v)}`);
};

const wholeNumber: Check = (v, at, p) => {
  if (!Number.isSafeInteger(v) || (v as number) <= 0) invalid(p, at, `must be a whole number above 0, not ${shown(v)}`);
};

function listOf(item: Check): Check {
  return (v, at, p) => {
    if (!Array.isArray(v)) return invalid(p, at, `must be a list, not ${shown(v)}`);
    v.forEach((x, i) => item(x, [...at, String(i)], p));
  };
}

function oneOf(...allowed: string[]): Check {
  return (v, at, p) => {
    if (typeof v !== 'string' || !allowed.includes(v)) invalid(p, at, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, not ${shown(v)}`);
  };
}

function object(fields: Readonly<Record<string, Check>>): Check {
  return (v, at, p) => {
    if (!isObject(v)) return invalid(p, at, `must be an object, not ${shown(v)}`);
    for (const [key, value] of Object.entries(v)) {
      const check = fields[key];
      if (check) {
        if (value !== undefined) check(value, [...at, key], p);
        continue;
      }
      const near = closest(key, Object.keys(fields));
      p.push({
        rule: 'config/unknown-key',
        keyPath: [...at, key],
        message: `unknown key '${[...at, key].join('.')}'`,
        note: near ? `did you mean '${near}'?` : `known keys here: ${Object.keys(fields).join(', ')}`,
      });
    }
  };
}

function recordOf(key: Check, value: Check): Check {
  return (v, at, p) => {
    if (!isObject(v)) return invalid(p, at, `must be an object, not ${shown(v)}`);
    for (const [k, x] of Object.entries(v)) {
      key(k, [...at, k], p);
      value(x, [...at, k], p);
    }
  };
}

const CONSTANT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const constantName: Check = (k, at, p) => {
  if (!CONSTANT_NAME.test(k as string)) invalid(p, at, 'a constant name is letters, digits and `_`, not starting with a digit');
};
const constantValue: Check = (v, at, p) => {
  if (typeof v !== 'string') invalid(p, at, `a constant is a string, not ${shown(v)}`, typeof v === 'number' || typeof v === 'boolean' ? `write it as the text it prints: '${String(v)}'` : undefined);
  // Written into dynamic sections before their template is read: braces would become template code.
  else if (v.includes('{{')) invalid(p, at, "a constant may not hold '{{'", 'constants are text; a value that varies per request is a dynamic input');
};

const sourceDir: Check = (v, at, p) => {
  if (typeof v !== 'string' || v === '') return invalid(p, at, `must be a non-empty string, not ${shown(v)}`);
  const normal = normaliseSourceDir(v);
  if (!normal.ok) invalid(p, at, `${JSON.stringify(v)} ${normal.problem}`);
};

const RULE_IDS: readonly string[] = RULES;
const ruleId: Check = (k, at, p) => {
  if (RULE_IDS.includes(k as string)) return;
  const near = closest(k as string, RULE_IDS);
  p.push({ rule: 'config/unknown-key', keyPath: at, message: `no rule '${String(k)}'`, ...(near ? { note: `did you mean '${near}'?` } : {}) });
};

const SCHEMA = object({
  out: string,
  sources: object({ prompts: sourceDir, agents: sourceDir }),
  models: listOf(string),
  // Rows are checked where `--cache-facts` files are (cache-facts-file.ts), when the config is applied.
  cacheFacts: (v, at, p) => (typeof v === 'string' ? string(v, at, p) : listOf(() => {})(v, at, p)),
  include: object({ maxDepth: wholeNumber, maxBytes: wholeNumber, maxExpandedBytes: wholeNumber, extensions: listOf(string) }),
  comments: oneOf('keep', 'strip'),
  agents: object({ ignore: listOf(string), tools: listOf(string) }),
  rules: recordOf(ruleId, oneOf('off', 'warning', 'error')),
  constants: recordOf(constantName, constantValue),
  targets: listOf(oneOf('js', 'python')),
});

export function validateConfig(value: unknown): { config: ProjectConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  SCHEMA(value, [], problems);
  return { config: problems.length === 0 ? (value as ProjectConfig) : {}, problems };
}

function shown(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v);
  return `${typeof v} ${String(v)}`;
}
