/**
 * The check a thunk runs on every value it prints that is not already a
 * string. Handlebars output is a fold with JavaScript `+` (`{{a}}{{b}}` with
 * 1 and 2 renders "3"), so the value must stay what `+` would see: this
 * returns its primitive — exactly the one `+` would compute, from exactly one
 * call of the value's own conversion methods — or throws a RenderError where
 * `+` would throw a bare TypeError.
 */
import { describeError, unprintable } from './render-error.js';

export function printable(value: unknown, section: string, variable: string): unknown {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return value;
    case 'symbol':
      throw unprintable(section, variable, 'it is a symbol');
  }
  if (value === null) return value;
  let primitive: unknown;
  try {
    primitive = toPrimitive(value as object);
  } catch (cause) {
    throw unprintable(section, variable, cause instanceof Unconvertible ? cause.message : `converting it threw ${describeError(cause)}`, cause);
  }
  if (typeof primitive === 'symbol') throw unprintable(section, variable, 'it converts to a symbol');
  return primitive;
}

class Unconvertible extends Error {}

/** ECMAScript ToPrimitive(value, "default"), which is what `+` applies to an object operand. */
function toPrimitive(value: object): unknown {
  const exotic = (value as { [Symbol.toPrimitive]?: unknown })[Symbol.toPrimitive];
  if (exotic != null) {
    if (typeof exotic !== 'function') throw new Unconvertible('its Symbol.toPrimitive is not a function');
    const result: unknown = exotic.call(value, 'default');
    if (isObject(result)) throw new Unconvertible('its Symbol.toPrimitive returned an object');
    return result;
  }
  // OrdinaryToPrimitive with hint "number": valueOf first, then toString.
  for (const key of ['valueOf', 'toString'] as const) {
    const method: unknown = (value as Record<string, unknown>)[key];
    if (typeof method !== 'function') continue;
    const result: unknown = method.call(value);
    if (!isObject(result)) return result;
  }
  const toString: unknown = (value as Record<string, unknown>).toString;
  throw new Unconvertible(
    toString !== undefined && typeof toString !== 'function' ? 'its toString is not a function' : 'neither its valueOf nor its toString returns a primitive',
  );
}

function isObject(value: unknown): boolean {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}
