/**
 * The CLI reference (docs/cli.md) rendered from the option table the parsers
 * read (options.ts), so the page cannot drift from the flags. Pure: the table
 * in, Markdown out. `withCliReference` puts it between the page's markers;
 * `npm run docs:cli` writes it, and test/docs/cli-reference.test.ts fails while
 * the committed page differs.
 */
import { COMMANDS, COMMON_OPTIONS, DEFAULT_COMMAND, type CommandSpec, type OptionSpec } from '../options.js';

export const CLI_REFERENCE_START = '<!-- cli-reference: generated from the option table by `npm run docs:cli`; edit the table, not this part -->';
export const CLI_REFERENCE_END = '<!-- /cli-reference -->';

/** Markdown for every command and flag in the table: a summary, one heading per command, then the flags every command takes. */
export function cliReference(): string {
  const commands = Object.entries(COMMANDS);
  const lines: string[] = [
    '## Commands',
    '',
    '| command | does |',
    '|---|---|',
    ...commands.map(([name, spec]) => `| [\`${usage(name, spec)}\`](#${name})${name === DEFAULT_COMMAND ? ' (also bare `prompt-build`)' : ''} | ${cell(spec.describe)} |`),
    '',
  ];
  for (const [name, spec] of commands) lines.push(...commandSection(name, spec));
  lines.push(
    '## Options every command takes',
    '',
    'Every command also takes `--help` and `--version`.',
    '',
    ...optionTable(COMMON_OPTIONS),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The page with its generated part replaced by `cliReference()`; the text
 * around the markers is kept as written. A page without both markers is an
 * error: the reference has nowhere to go.
 */
export function withCliReference(page: string): string {
  const start = page.indexOf(CLI_REFERENCE_START);
  const end = page.indexOf(CLI_REFERENCE_END, start + 1);
  if (start < 0 || end < 0) throw new Error(`the page has no '${CLI_REFERENCE_START}' … '${CLI_REFERENCE_END}' markers`);
  return `${page.slice(0, start)}${CLI_REFERENCE_START}\n\n${cliReference()}\n${page.slice(end)}`;
}

function commandSection(name: string, spec: CommandSpec): string[] {
  const options = Object.keys(spec.options).length;
  return [
    `### ${name}`,
    '',
    '```',
    `${usage(name, spec)} [options]${name === DEFAULT_COMMAND ? `\nprompt-build [options]` : ''}`,
    '```',
    '',
    `${sentence(spec.describe)}${spec.positionals.length > 0 ? ` ${positionalNote(spec.positionals)}` : ''}`,
    '',
    options === 0
      ? 'No options of its own; it takes the [options every command takes](#options-every-command-takes).'
      : 'Its own options, besides the [options every command takes](#options-every-command-takes):',
    '',
    ...(options === 0 ? [] : [...optionTable(spec.options), '']),
  ];
}

function usage(name: string, spec: CommandSpec): string {
  return ['prompt-build', name, ...spec.positionals.map(positionalUsage)].join(' ');
}

/** As the help text writes them: `<old>` required, `[bundle]` optional, `[bundles..]` any number. */
function positionalUsage(positional: string): string {
  if (positional.endsWith('...')) return `[${bare(positional)}..]`;
  return positional.endsWith('?') ? `[${bare(positional)}]` : `<${positional}>`;
}

function positionalNote(positionals: readonly string[]): string {
  const described = positionals.map((p) => {
    if (p.endsWith('...')) return `\`${bare(p)}\`: any number`;
    return p.endsWith('?') ? `\`${bare(p)}\`: optional` : `\`${p}\`: required`;
  });
  return `Positional arguments: ${described.join('; ')}.`;
}

function bare(positional: string): string {
  return positional.replace(/(\?|\.\.\.)$/, '');
}

function optionTable(options: Readonly<Record<string, OptionSpec>>): string[] {
  return [
    '| option | value | default | description |',
    '|---|---|---|---|',
    ...Object.entries(options).map(([flag, spec]) => `| ${flagCell(flag, spec)} | ${valueCell(spec)} | ${defaultCell(spec)} | ${spec.describe === undefined ? '' : cell(spec.describe)} |`),
  ];
}

/** A boolean that is not off by default (on, or decided elsewhere: the config, the terminal) also has its `--no-` form. */
function flagCell(flag: string, spec: OptionSpec): string {
  if (spec.type === 'boolean' && spec.default !== false) return `\`--${flag}\`, \`--no-${flag}\``;
  return `\`--${flag}\``;
}

function valueCell(spec: OptionSpec): string {
  if (spec.choices) return spec.choices.map((choice) => `\`${choice}\``).join(', ');
  switch (spec.type) {
    case 'boolean':
      return 'none (a switch)';
    case 'array':
      return 'one or more values';
    default:
      return 'a value';
  }
}

function defaultCell(spec: OptionSpec): string {
  if (spec.default === undefined) return '—';
  if (typeof spec.default === 'boolean') return spec.default ? 'on' : 'off';
  return `\`${spec.default}\``;
}

/** The table's text as a sentence: a capital first letter, a full stop at the end. */
function sentence(text: string): string {
  const escaped = cell(text);
  const capital = escaped.charAt(0).toUpperCase() + escaped.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Text from the table, safe in a Markdown table cell: `|` escaped everywhere
 * (GitHub splits cells on it even inside code spans), and outside code spans
 * `<` and `*` escaped, so `<root>/dist` is not read as an HTML tag.
 */
function cell(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[<*]/g, (c) => (c === '<' ? '&lt;' : `\\${c}`))))
    .join('')
    .replace(/\|/g, '\\|');
}
