/** The file system refused a write (full disk, read-only, permissions, a name too long…). */
export class OutputWriteError extends Error {
  override name = 'OutputWriteError';
  constructor(
    /** The path that could not be written. */
    readonly file: string,
    /** The system's error code (`ENOSPC`, `EROFS`, …), or `EEXIST` for a path the tool does not own. */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
