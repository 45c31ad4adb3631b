/**
 * The full parser, for what the quick one leaves (see args.ts): help, usage
 * errors with their help text, list-valued flags. Built from the same option
 * table, producing the same command.
 */
import { createRequire } from 'node:module';
import yargs, { type Argv, type Options } from 'yargs';
import { toCommand, type Command, type ParseOutcome } from './args.js';
import { COMMANDS, COMMON_OPTIONS, DEFAULT_COMMAND, type OptionSpec } from './options.js';
import { withHint } from './unknown-argument.js';

/** From package.json (two levels above `compiler/cli/` and `lib/cli/`). */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

export async function parseWithYargs(argv: readonly string[], cwd: string): Promise<ParseOutcome> {
  let command: Command | undefined;
  let failure: string | undefined;
  let output = '';
  let parser: Argv = yargs([...argv]).scriptName('prompt-build');
  for (const [flag, spec] of Object.entries(COMMON_OPTIONS)) parser = parser.option(flag, { ...toYargs(spec), global: true });
  for (const [name, spec] of Object.entries(COMMANDS)) {
    const usage = [name, ...spec.positionals.map(usageOf)].join(' ');
    parser = parser.command(
      name === DEFAULT_COMMAND ? [usage, '$0'] : usage,
      spec.describe,
      (y) => {
        let withOptions = y;
        for (const p of spec.positionals) withOptions = withOptions.positional(bare(p), { type: 'string', ...(p.endsWith('...') ? { array: true } : {}) });
        for (const [flag, option] of Object.entries(spec.options)) withOptions = withOptions.option(flag, toYargs(option));
        return withOptions;
      },
      (a) => {
        try {
          const positionals = spec.positionals.flatMap((p) => (a[bare(p)] as string | string[] | undefined) ?? []);
          command = toCommand(name, a, positionals, cwd);
        } catch (error) {
          failure = (error as Error).message;
        }
      },
    );
  }
  parser = parser
    .strict()
    .recommendCommands()
    .help()
    .version('version', 'print the version', VERSION)
    .exitProcess(false)
    .fail((message, error) => {
      failure = message || error?.message || 'invalid arguments';
    });
  await parser.parseAsync([...argv], {}, (_err, _argv, text) => {
    output = text;
  });
  // Help is rendered only now: asking yargs for it before parsing swallows the command.
  if (failure !== undefined) {
    const help = await parser.getHelp();
    return { kind: 'usage-error', message: withHint(failure, argv, namesInHelp(help)), help };
  }
  if (command) return { kind: 'command', command };
  return { kind: 'output', text: output };
}

/** A positional's name in the table without its `?` or `...`. */
function bare(positional: string): string {
  return positional.replace(/(\?|\.\.\.)$/, '');
}

function usageOf(positional: string): string {
  if (positional.endsWith('...')) return `[${bare(positional)}..]`;
  return positional.endsWith('?') ? `[${bare(positional)}]` : `<${positional}>`;
}

/** The commands and options the help text for the failed command line lists: what a mistyped name is compared with. */
function namesInHelp(help: string): { commands: string[]; options: string[] } {
  const commands = [...help.matchAll(/^ {2}prompt-build ([a-z]+)/gm)].map((m) => m[1]!);
  const options = [...help.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1]!);
  return { commands: [...new Set(commands)], options: [...new Set(options)] };
}

/** yargs' form of an option. Values are checked by `toCommand` (the same code as the quick parser's), not here. */
function toYargs(spec: OptionSpec): Options {
  const option: Options = { type: spec.type === 'array' ? 'string' : spec.type, describe: spec.describe };
  // A string flag takes the next word whatever it is (`--out-file -` is stdout, not a positional).
  if (spec.type === 'string') option.requiresArg = true;
  if (spec.type === 'array') option.array = true;
  if (spec.choices) option.choices = [...spec.choices];
  if (spec.default !== undefined) option.default = spec.default;
  return option;
}
