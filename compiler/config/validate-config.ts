/**
 * Checking a loaded config against the shape of `ProjectConfig`: every
 * unknown key and wrong type found at once, each with the key path it is at,
 * so the caller can point at the line that wrote it.
 *
 * A JavaScript config is code: its value may be a Promise, a Map, a class
 * instance, a Proxy, or hold getters that throw. So it is first copied, each
 * property read once, into plain data (arrays and null-prototype objects)
 * that the checks and the build then use; anything that is not plain data,
 * or throws while being read, is a problem at its key path. Keys are looked
 * up as own keys only: `__proto__`, `toString` or `hasOwnProperty` are
 * unknown keys like any other.
 */
import { RULES } from '../diagnostics/diagnostics.js';
import { closest } from '../diagnostics/did-you-mean.js';
import type { ProjectConfig } from './define-config.js';
import { normaliseSourceDir } from '../core/source-dirs.js';

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
      const check = Object.hasOwn(fields, key) ? fields[key] : undefined;
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

const RULE_IDS: ReadonlySet<string> = new Set(RULES);
const ruleId: Check = (k, at, p) => {
  if (RULE_IDS.has(k as string)) return;
  const near = closest(k as string, RULES);
  p.push({ rule: 'config/unknown-key', keyPath: at, message: `no rule '${String(k)}'`, ...(near ? { note: `did you mean '${near}'?` } : {}) });
};

/** The first parts of prompt-build's own rule ids: `section`, `include`… A plugin's rule is named by its own. */
const OWN_NAMESPACES: ReadonlySet<string> = new Set(RULES.map((rule) => rule.slice(0, rule.indexOf('/'))));
/** With plugins configured, a rule id outside prompt-build's namespaces is a plugin's (`remark-lint/no-empty-url`): which ones a plugin has is known only once it runs. */
const ruleOrPluginRuleId: Check = (k, at, p) => {
  const id = k as string;
  const slash = id.indexOf('/');
  if (slash > 0 && slash < id.length - 1 && !/\s/.test(id) && !OWN_NAMESPACES.has(id.slice(0, slash))) return;
  ruleId(k, at, p);
};

const pluginRef: Check = (v, at, p) => {
  if (typeof v === 'function' || (typeof v === 'string' && v !== '')) return;
  invalid(p, at, `must be a plugin: the function, or its package name or file as a string, not ${shown(v)}`);
};
const pluginEntry: Check = (v, at, p) => {
  if (!Array.isArray(v)) return pluginRef(v, at, p);
  if (v.length === 0 || v.length > 2) return invalid(p, at, `a plugin with options is written [plugin, options], not a list of ${v.length}`);
  pluginRef(v[0], [...at, '0'], p);
};

const schema = (pluginRules: boolean): Check => object({
  out: string,
  sources: object({ prompts: sourceDir, agents: sourceDir, skills: sourceDir, commands: sourceDir, outputStyles: sourceDir, rules: sourceDir }),
  models: listOf(string),
  // Rows are checked where `--cache-facts` files are (cache-facts-file.ts), when the config is applied.
  cacheFacts: (v, at, p) => (typeof v === 'string' ? string(v, at, p) : listOf(() => {})(v, at, p)),
  include: object({ maxDepth: wholeNumber, maxBytes: wholeNumber, maxExpandedBytes: wholeNumber, extensions: listOf(string) }),
  comments: oneOf('keep', 'strip'),
  agents: object({ ignore: listOf(string), tools: listOf(string) }),
  rules: recordOf(pluginRules ? ruleOrPluginRuleId : ruleId, oneOf('off', 'warning', 'error')),
  constants: recordOf(constantName, constantValue),
  targets: listOf(oneOf('js', 'python')),
  plugins: listOf(pluginEntry),
});

export function validateConfig(value: unknown): { config: ProjectConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  let data: unknown;
  try {
    data = plainData(value, []);
  } catch (error) {
    if (!(error instanceof NotPlainData)) throw error; // a bug here, not in the config
    problems.push({ rule: 'config/invalid-value', keyPath: error.keyPath, message: error.message, ...(error.note === undefined ? {} : { note: error.note }) });
    return { config: {}, problems };
  }
  const plugins = isObject(data) && Array.isArray(data.plugins) && data.plugins.length > 0;
  schema(plugins)(data, [], problems);
  return { config: problems.length === 0 ? (data as ProjectConfig) : {}, problems };
}

/** Deeper than any config is written; a cycle ends here too. */
const MAX_DEPTH = 32;
/** More keys or items than one object or list of a config holds. */
const MAX_ENTRIES = 100_000;

class NotPlainData {
  constructor(
    readonly keyPath: string[],
    readonly message: string,
    readonly note?: string,
  ) {}
}

/**
 * `value` as plain data: primitives as they are, arrays as arrays, objects as
 * null-prototype copies of their own enumerable string keys, each read once.
 * Throws `NotPlainData` for anything else, and for whatever reading throws.
 */
function plainData(value: unknown, at: string[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // A plugin's options are the plugin's to read, as given (a pattern, a Set): `plugins.<i>.1`.
  if (at.length === 3 && at[0] === 'plugins' && at[2] === '1') return value;
  const where = at.length === 0 ? 'the default export' : at.join('.');
  if (at.length > MAX_DEPTH) throw new NotPlainData(at, `${where}: nests deeper than ${MAX_DEPTH} levels`);
  try {
    if (Array.isArray(value)) {
      const length = value.length;
      if (length > MAX_ENTRIES) throw new NotPlainData(at, `${where}: has ${length} items, over the ${MAX_ENTRIES} a config list may hold`);
      return Array.from({ length }, (_, i) => plainData(value[i], [...at, String(i)]));
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const kind = kindOf(value);
      const note = kind === 'a Promise' ? 'export the config itself: `export default defineConfig({ … })`, after any `await`' : undefined;
      throw new NotPlainData(at, `${where}: must be a plain object, not ${kind}`, note);
    }
    const keys = Reflect.ownKeys(value).filter((key): key is string => typeof key === 'string');
    if (keys.length > MAX_ENTRIES) throw new NotPlainData(at, `${where}: has ${keys.length} keys, over the ${MAX_ENTRIES} a config object may hold`);
    const copy: Record<string, unknown> = Object.create(null);
    for (const key of keys) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
      if (!descriptor?.enumerable) continue;
      copy[key] = plainData('value' in descriptor ? descriptor.value : readGetter(value, key, [...at, key]), [...at, key]);
    }
    return copy;
  } catch (error) {
    if (error instanceof NotPlainData) throw error;
    throw new NotPlainData(at, `${where}: reading it threw ${describeThrown(error)}`, 'a config is data: no getters that can fail, no Proxies');
  }
}

/** A getter's value, read once; what it throws is a problem at its own key. */
function readGetter(value: object, key: string, at: string[]): unknown {
  try {
    return Reflect.get(value, key);
  } catch (error) {
    throw new NotPlainData(at, `${at.join('.')}: reading it threw ${describeThrown(error)}`, 'a config is data: no getters that can fail, no Proxies');
  }
}

/** What an object is, for a message: `a Promise`, `a Map`, `an instance of Settings`. */
function kindOf(value: object): string {
  if (value instanceof Promise) return 'a Promise';
  for (const [type, name] of [[Map, 'a Map'], [Set, 'a Set'], [Date, 'a Date'], [RegExp, 'a regular expression']] as const) {
    if (value instanceof type) return name;
  }
  const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(name) ? `an instance of ${name}` : 'an object with a prototype';
}

/**
 * A thrown value as a few words, whatever it is: `null`, a string, an Error
 * whose `message` is a getter that throws, a Proxy. Never throws itself.
 */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      const text = typeof message === 'string' ? message.split('\n')[0]!.trim().slice(0, 200) : '';
      return text === '' ? 'an error' : `an error: ${text}`;
    }
    if (typeof error === 'string') return JSON.stringify(error.split('\n')[0]!.slice(0, 200));
    if (typeof error === 'object' || typeof error === 'function') return error === null ? 'null' : 'a value that is not an Error';
    return String(error);
  } catch {
    return 'a value that cannot be shown';
  }
}

function shown(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'string') return JSON.stringify(v.length > 200 ? `${v.slice(0, 200)}…` : v);
  return `${typeof v} ${String(v)}`;
}
