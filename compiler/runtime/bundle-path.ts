/**
 * A path a manifest or a journal names, as a file of the bundle: relative,
 * POSIX, inside it. One test for the loader (a tampered manifest must not
 * make it read outside the bundle) and the writer (a tampered journal must
 * not make it delete outside the bundle), in a module of its own so that
 * the writer's up-to-date path loads nothing more.
 */

/** No `..` or `.` segment, no empty one, no absolute path, no backslash, no `:` (a drive or a stream on Windows), no NUL. */
export function isBundlePath(file: string): boolean {
  return file !== '' && !file.startsWith('/') && !/[\\:\0]/.test(file) && file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}
