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

/** `env` with the server's thread pool size added, unless `env` sets one. */
export function withServerThreadPool(env) {
  return env.UV_THREADPOOL_SIZE ? env : { ...env, UV_THREADPOOL_SIZE: SERVER_THREAD_POOL };
}
