/**
 * Whether a rule's `paths:` glob can match a file of the project. Claude Code
 * matches project-relative paths with `/` between folders; a glob that cannot
 * be one (absolute, climbing out, Windows separators) or whose brackets do not
 * close matches nothing, without a word.
 */

/** Why `glob` matches no project path, as the end of "paths: 'x' …", or null. */
export function globProblem(glob: string): string | null {
  if (glob.trim() === '') return 'is empty';
  if (glob.startsWith('/') || /^[A-Za-z]:[\\/]/.test(glob)) return 'is absolute; globs are relative to the project root';
  if (glob.split('/').includes('..')) return "climbs out with '..'; globs are relative to the project root";
  if (glob.includes('\\')) return "holds '\\'; folders are separated by '/'";
  return unclosed(glob);
}

/** An unclosed `{` or `[` (or a `}` closing nothing); no escape is read, since a glob holding a backslash is refused before this. */
function unclosed(glob: string): string | null {
  let braces = 0;
  let bracket = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (bracket) {
      if (c === ']') bracket = false;
      continue;
    }
    if (c === '[') bracket = true;
    else if (c === '{') braces++;
    else if (c === '}') {
      if (braces === 0) return "closes a '}' it never opened";
      braces--;
    }
  }
  if (bracket) return "opens a '[' it never closes";
  if (braces > 0) return "opens a '{' it never closes";
  return null;
}
