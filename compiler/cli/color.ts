/**
 * Whether output is coloured when no `--color`/`--no-color` is given: on for
 * a terminal, off for a pipe or file; `NO_COLOR` (non-empty) turns it off and
 * wins, as in picocolors; `FORCE_COLOR` turns it on, unless `0` or `false`.
 */
export function colorByDefault(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY === true && env.TERM !== 'dumb';
}
