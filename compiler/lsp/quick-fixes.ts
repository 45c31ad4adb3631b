/**
 * The fixes the build already knows how to word, as edits an editor offers
 * on the diagnostic: the quoting a `frontmatter/lenient-yaml` note shows, and
 * an undeclared input added to `inputs:`. Computed when the diagnostic is
 * published (it travels in the diagnostic's `data`), from the file's text.
 */
import type { Diagnostic } from '../diagnostics/diagnostics.js';

export interface TextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

export interface QuickFix {
  title: string;
  edits: TextEdit[];
}

export function quickFixFor(d: Diagnostic, lines: readonly string[]): QuickFix | null {
  if (d.rule === 'frontmatter/lenient-yaml') {
    const quoted = /^put the value in quotes: (.*)$/.exec(d.note ?? '')?.[1];
    const line = lines[d.line - 1];
    if (quoted === undefined || line === undefined) return null;
    const indent = /^\s*/.exec(line)![0];
    return { title: `Quote the value: ${quoted}`, edits: [{ range: wholeLine(d.line - 1, line), newText: `${indent}${quoted}` }] };
  }
  if (d.rule === 'section/undeclared-input') {
    const name = /reads '([^']+)'/.exec(d.message)?.[1];
    if (name === undefined || lines[0] !== '---') return null;
    const edit = addToInputs(lines, name);
    return edit ? { title: `Declare '${name}' in inputs:`, edits: [edit] } : null;
  }
  return null;
}

function wholeLine(line: number, text: string): TextEdit['range'] {
  return { start: { line, character: 0 }, end: { line, character: text.length } };
}

/** `inputs: [a]` → `inputs: [a, name]`; a block list gets an item; no key, a new line before the closing `---`. */
function addToInputs(lines: readonly string[], name: string): TextEdit | null {
  const close = lines.indexOf('---', 1);
  if (close < 0) return null;
  const key = lines.slice(1, close).findIndex((l) => /^inputs\s*:/.test(l)) + 1;
  if (key === 0) return { range: { start: { line: close, character: 0 }, end: { line: close, character: 0 } }, newText: `inputs: [${name}]\n` };
  const line = lines[key]!;
  const flow = /^(inputs\s*:\s*\[)(.*?)(\]\s*)$/.exec(line);
  if (flow) {
    const items = flow[2]!.trim();
    return { range: wholeLine(key, line), newText: `${flow[1]}${items === '' ? name : `${items}, ${name}`}${flow[3]}` };
  }
  let last = key;
  while (last + 1 < close && /^\s*-\s/.test(lines[last + 1]!)) last++;
  const indent = last > key ? /^\s*/.exec(lines[last]!)![0] : '  ';
  const at = { line: last + 1, character: 0 };
  return { range: { start: at, end: at }, newText: `${indent}- ${name}\n` };
}
