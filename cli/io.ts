/**
 * Where the CLI writes: standard output and error, and progress on a terminal.
 * A reader that goes away (`oda-admin … | head -1`) ends the run at the next
 * line written, instead of the command working on into a closed pipe.
 */

/** Thrown by a write once its stream is closed or broken: `main` stops and exits 141. */
export class ClosedOutputError extends Error {
  constructor() {
    super("The output was closed by its reader.");
    this.name = "ClosedOutputError";
  }
}

/** The CLI's sinks; tests pass their own. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Redraws one progress line in place (`last` ends it; an empty last one clears it); absent when standard error is not a terminal. */
  progress?: (text: string, last: boolean) => void;
}

/**
 * Writes a line to `stream`, throwing `ClosedOutputError` once it failed (EPIPE
 * and the like). Pipes and files are written synchronously on Linux and macOS,
 * so a failed write sets `errored` before the call returns.
 */
function lineWriter(stream: NodeJS.WriteStream): (text: string) => void {
  // Without a listener a failed write would crash the process with an 'error' event.
  stream.on("error", () => undefined);
  return (text) => {
    if (stream.errored || stream.destroyed) throw new ClosedOutputError();
    stream.write(`${text}\n`);
    if (stream.errored) throw new ClosedOutputError();
  };
}

/** The process's own standard output and error. */
export function processIo(): Io {
  const err = lineWriter(process.stderr);
  return {
    out: lineWriter(process.stdout),
    err,
    progress: process.stderr.isTTY
      ? (text, last) => {
          if (process.stderr.errored) throw new ClosedOutputError();
          process.stderr.write(`\r\x1b[K${text}${last && text ? "\n" : ""}`);
        }
      : undefined,
  };
}
