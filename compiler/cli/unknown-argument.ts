/** yargs' "Unknown argument: x" with the nearest commands or options it may have meant. */
import { nearestNames } from '../diagnostics/did-you-mean.js';

export function withHint(message: string, argv: readonly string[], known: { commands: readonly string[]; options: readonly string[] }): string {
  const { commands, options } = known;
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (!match) return message;
  const hints = match[1]!.split(', ').map((name) => {
    const asOption = argv.some((a) => a === `--${name}` || a === `-${name}` || a.startsWith(`--${name}=`) || a === `--no-${name}`);
    return asOption ? `--${name}: ${nearestNames(`--${name}`, options.map((o) => `--${o}`), 'option')}` : `${name}: ${nearestNames(name, commands, 'command')}`;
  });
  return `${message}\n${hints.join('\n')}`;
}
