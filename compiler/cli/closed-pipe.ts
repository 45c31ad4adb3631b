/**
 * `prompt-build inspect | head -1`: once the reader is gone, further output
 * has nowhere to go. That is the reader's choice, not an error: end quietly
 * instead of dying on EPIPE with a stack trace.
 */
export function endQuietlyOnClosedPipe(streams: readonly NodeJS.WriteStream[]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}
