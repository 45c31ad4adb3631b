/**
 * The full parser, for what the quick one leaves (see args.ts): help, usage
 * errors with their help text, list-valued flags. Built from the same option
 * table, producing the same command.
 */
import yargs, { type Argv, type Options } from 'yargs';
import { toCommand, type Command, type ParseOutcome } from './args.js';
import { COMMANDS, COMMON_OPTIONS, DEFAULT_COMMAND, type OptionSpec } from './options.js';

export async function parseWithYargs(argv: readonly string[], cwd: string): Promise<ParseOutcome> {
  let command: Command | undefined;
  let failure: string | undefined;
  let output = '';
  let parser: Argv = yargs([...argv]).scriptName('prompt-build');
  for (const [flag, spec] of Object.entries(COMMON_OPTIONS)) parser = parser.option(flag, { ...toYargs(spec), global: true });
  for (const [name, spec] of Object.entries(COMMANDS)) {
    const usage = [name, ...spec.positionals.map((p) => (p.endsWith('?') ? `[${p.slice(0, -1)}]` : `<${p}>`))].join(' ');
    parser = parser.command(
      name === DEFAULT_COMMAND ? [usage, '$0'] : usage,
      spec.describe,
      (y) => {
        let withOptions = y;
        for (const p of spec.positionals) withOptions = withOptions.positional(p.replace('?', ''), { type: 'string' });
        for (const [flag, option] of Object.entries(spec.options)) withOptions = withOptions.option(flag, toYargs(option));
        return withOptions;
      },
      (a) => {
        try {
          command = toCommand(name, a, spec.positionals.map((p) => a[p.replace('?', '')] as string), cwd);
        } catch (error) {
          failure = (error as Error).message;
        }
      },
    );
  }
  parser = parser
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((message, error) => {
      failure = message || error?.message || 'invalid arguments';
    });
  await parser.parseAsync([...argv], {}, (_err, _argv, text) => {
    output = text;
  });
  // Help is rendered only now: asking yargs for it before parsing swallows the command.
  if (failure !== undefined) return { kind: 'usage-error', message: failure, help: await parser.getHelp() };
  if (command) return { kind: 'command', command };
  return { kind: 'output', text: output };
}

/** yargs' form of an option. Values are checked by `toCommand` (the same code as the quick parser's), not here. */
function toYargs(spec: OptionSpec): Options {
  const option: Options = { type: spec.type === 'array' ? 'string' : spec.type, describe: spec.describe };
  if (spec.type === 'array') option.array = true;
  if (spec.choices) option.choices = [...spec.choices];
  if (spec.default !== undefined) option.default = spec.default;
  return option;
}
