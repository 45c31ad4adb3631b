/**
 * Where a JSON text stops being JSON. `JSON.parse` on Node 20 says what it
 * did not expect but not where; a config error must point at the character.
 * A strict scanner of the grammar (RFC 8259), run only after `JSON.parse`
 * has failed: it finds the first offset no JSON text can continue from.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new Stop(i);
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) (i--, fail());
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') {
      const ch = text.charCodeAt(i);
      if (ch < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) (i++, fail());
          i += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match || match[0] === '' || match[0] === '-') fail();
    i += match![0].length;
  };
  /** An object's members or an array's elements, from the opening bracket at `i` to `close`. */
  const members = (close: '}' | ']', member: () => void): void => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      member();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  const pair = (): void => {
    ws();
    string();
    ws();
    if (text[i] !== ':') fail();
    i++;
    value();
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return members('}', pair);
    if (ch === '[') return members(']', value);
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    number();
  };
  try {
    value();
    ws();
    return i < text.length ? i : text.length;
  } catch (stop) {
    // A nesting deeper than the stack: no position worth giving.
    return stop instanceof Stop ? Math.min(stop.offset, text.length) : 0;
  }
}

class Stop {
  constructor(readonly offset: number) {}
}
