// The environment every start of the dashboard's server adds (`npm start`, `oda-admin serve`, the e2e and bench
// servers): plain JavaScript with no imports, so `scripts/start.mjs` can load it before `npm ci` has run.

/**
 * libuv's thread pool for the server: the threads that decode zstd batches (`@mongodb-js/zstd` decodes on
 * the pool) and run asynchronous file reads. glibc gives each thread that allocates an arena of its own
 * and keeps what a thread freed there resident, so every pool thread ends up holding its own high-water
 * mark of decoded logs long after they were read. Two threads, one per core of the machines this runs on:
 * at 100,000 chats and a 200 MB log, the server idle after every step of `bench:dashboard` held 527 MiB
 * with libuv's default of four and 330 MiB with one (session 41). A size the person set is kept.
 */
export const SERVER_THREAD_POOL = "2";

/**
 * glibc's malloc for the server (`GLIBC_TUNABLES`, read by glibc when the process starts; other C libraries
 * ignore it). By default glibc raises both of its thresholds each time a big block is freed: the size from
 * which a block gets a mapping of its own (up to 32 MiB) and the free space an arena keeps at its top before
 * giving it back (twice that, up to 64 MiB, an arena's whole heap). After the first decoded batch of a log,
 * every batch comes from a thread's arena, and the arenas of the decode threads and the pool threads never
 * give back what they freed. Fixed here: blocks under 32 MiB come from the arenas, as glibc's own thresholds
 * end up doing (a mapping per batch, unmapped when freed, doubled the CPU of reading a big log), and an arena
 * gives back what is free at its top beyond 2 MiB. At 100,000 chats and a 200 MB log, `bench:dashboard`'s
 * every step (session 42; docs/performance.md): peak 471 against 587 MiB, 252 against 308 MiB 15 s idle,
 * the arenas 51 against 124 MiB at idle.
 */
export const SERVER_MALLOC_TUNABLES = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=2097152";

/**
 * V8's `gc` for the server's idle collection of its main heap (`server/idle-collect.ts`): V8 keeps an idle
 * heap at the size it grew to while busy, and only a full collection gives it back.
 */
export const SERVER_NODE_OPTION = "--expose-gc";

/**
 * `env` with the server's thread pool size, malloc tunables and `--expose-gc` added. A pool size the
 * environment sets is kept; tunables it sets are kept, with the malloc ones added only when it sets none of
 * glibc's malloc tunables; its NODE_OPTIONS are kept, with the option added. `env` itself is not changed.
 */
export function withServerEnv(env) {
  const tunables = env.GLIBC_TUNABLES ?? "";
  const options = env.NODE_OPTIONS ?? "";
  return {
    ...env,
    UV_THREADPOOL_SIZE: env.UV_THREADPOOL_SIZE || SERVER_THREAD_POOL,
    GLIBC_TUNABLES: tunables.includes("glibc.malloc.")
      ? tunables
      : [tunables, SERVER_MALLOC_TUNABLES].filter(Boolean).join(":"),
    NODE_OPTIONS: options.split(/\s+/).includes(SERVER_NODE_OPTION)
      ? options
      : [options, SERVER_NODE_OPTION].filter(Boolean).join(" "),
  };
}
