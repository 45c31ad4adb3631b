/**
 * Conditional rules files (docs/context.md#conditional-rules): a rules file whose frontmatter carries
 * `paths:` (a glob or a list of globs) applies only when one of the files in
 * play matches, relative to the project directory that holds the rules folder.
 *
 * Globs follow picomatch, with two choices made
 * for people who write `.gitignore`-style lists: a glob without a slash matches
 * the file name at any depth (`*.test.ts`), and dot files are matched too.
 */
import path from 'node:path';

/** Where a rules file applies, read from its frontmatter. */
export type RuleScope =
  | { kind: 'everywhere' }
  | { kind: 'paths'; globs: readonly string[] }
  | { kind: 'invalid'; message: string };

export function readRuleScope(frontmatter: Record<string, unknown>): RuleScope {
  if (!('paths' in frontmatter)) return { kind: 'everywhere' };
  const value = frontmatter.paths;
  const globs = typeof value === 'string' ? [value] : value;
  if (Array.isArray(globs) && globs.length > 0 && globs.every((g) => typeof g === 'string' && g.trim() !== '')) {
    return { kind: 'paths', globs: globs.map((g: string) => g.trim()) };
  }
  return {
    kind: 'invalid',
    message: '`paths:` must be a glob or a non-empty list of globs; this rules file is not applied until it is fixed',
  };
}

/** True when a file in play (absolute, or relative to `cwd`) lies under `projectDir` and matches a glob. */
export async function matchesFilesInPlay(
  globs: readonly string[],
  projectDir: string,
  filesInPlay: readonly string[],
  cwd: string,
): Promise<boolean> {
  // Loaded only for a rules file with `paths:`.
  const { default: picomatch } = await import('picomatch');
  const isMatch = picomatch(
    globs.map((g) => (g.includes('/') ? g : `**/${g}`)) as string[],
    { dot: true },
  );
  return filesInPlay.some((file) => {
    const rel = path.relative(projectDir, path.resolve(cwd, file));
    const outside = rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
    return !outside && isMatch(rel.split(path.sep).join('/'));
  });
}
