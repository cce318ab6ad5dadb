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
 * and the like). A pipe or socket is put in blocking mode, as a C tool's
 * output is: a write waits for a slow reader instead of queueing the rest of
 * the output in memory, and a reader that has gone makes the write itself
 * fail, so `errored` is set before it returns. (Node writes a pipe at once
 * only while it has room; a socket pair, as `spawn` makes, soon queues.)
 */
function lineWriter(stream: NodeJS.WriteStream): (text: string) => void {
  const handle = (stream as { _handle?: { setBlocking?: (on: boolean) => number } })._handle;
  if (!stream.isTTY) handle?.setBlocking?.(true);
  // Without a listener a failed write would crash the process with an 'error' event; `errored` tells.
  if (!stream.listeners("error").includes(ignore)) stream.on("error", ignore);
  return (text) => {
    if (stream.errored || stream.destroyed) throw new ClosedOutputError();
    stream.write(`${text}\n`);
    if (stream.errored) throw new ClosedOutputError();
  };
}

function ignore(): void {}

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
