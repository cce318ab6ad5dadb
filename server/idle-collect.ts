/**
 * The server's main heap given back when the server is idle. V8 keeps the heap it grew to while busy (a
 * chat list of 100,000 rows, a Doctor report) for as long as nothing allocates: in a process left idle
 * for 12 s after making 100 MB of garbage, V8 held all of it (132 MiB of heap, 188 MiB resident), and one
 * full collection made it 28 MiB of heap and 81 MiB resident a second later (session 42). So once the
 * whole process (every thread) has been quiet for a few seconds after work, one full collection runs;
 * not again until there has been work since. A collection of the idle server's heap takes tens of
 * milliseconds, when nothing is waiting.
 *
 * It needs V8's `gc`, which the server's start exposes (`--expose-gc` in `lib/server-env.mjs`); without it
 * nothing runs.
 */

export interface IdleCollectOptions {
  /** How often the process's CPU time is looked at. */
  everyMs?: number;
  /** How many looks in a row must find the process quiet. */
  quietLooks?: number;
  /** Quiet: less CPU time than this share of a look's interval, the collection's own time left out. */
  quietShare?: number;
  /** The process's CPU time so far, in microseconds (every thread's). */
  cpuMicros?: () => number;
}

const processCpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Starts looking for idle time; `gc` is V8's collector (`globalThis.gc` when exposed). Returns a stop
 * function, or `null` when there is no collector. The timer never keeps the process alive.
 */
export function startIdleCollect(
  gc: (() => void) | undefined,
  { everyMs = 2000, quietLooks = 3, quietShare = 0.05, cpuMicros = processCpuMicros }: IdleCollectOptions = {},
): (() => void) | null {
  if (typeof gc !== "function") return null;
  let last = cpuMicros();
  let quiet = 0;
  // Work was done since the last collection (a server starts having done some: its start).
  let worked = true;
  // The last collection's own CPU time, left out of the next look.
  let own = 0;
  const timer = setInterval(() => {
    const now = cpuMicros();
    const used = now - last - own;
    last = now;
    own = 0;
    if (used > everyMs * 1000 * quietShare) {
      worked = true;
      quiet = 0;
      return;
    }
    if (!worked || ++quiet < quietLooks) return;
    const before = cpuMicros();
    gc();
    own = cpuMicros() - before;
    worked = false;
    quiet = 0;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
