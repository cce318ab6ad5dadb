/**
 * The index refresh worker's body: one background refresh of the search index
 * (`lib/search-index/refresh.ts`) on its own thread with its own SQLite connection,
 * so that reading logs never holds up the server's event loop. It posts
 * `{ progress: [done, total] }` as chats are done, then `{ result }` or
 * `{ error }`, and ends. Loaded by `server/workers/index-thread.mjs` through tsx in a
 * clone, and bundled by esbuild into the package's server (`scripts/pack/build.mjs`).
 */

import { parentPort, workerData } from "node:worker_threads";
import { readLogLimits, setLogLimits } from "../../lib/chats/limits";
import { errorToData } from "../../lib/errors";
import { systemErrorAsOda } from "../../lib/fs/system-error";
import { closeAllIndexes, openIndex } from "../../lib/search-index/db";
import { refreshIndex } from "../../lib/search-index/refresh";

/** What the server hands the worker. */
interface Task {
  state: string;
  logDir: string;
  compress: boolean | undefined;
}

const port = parentPort;
if (!port) throw new Error("The index refresh worker runs only as a worker thread.");
const { state, logDir, compress } = workerData as Task;
// The same log limits as the server's own reads (the server reports their problems).
setLogLimits(readLogLimits(state).limits);
try {
  const result = await refreshIndex(openIndex(state, logDir), {
    compress,
    onProgress: (done, total) => port.postMessage({ progress: [done, total] }),
  });
  port.postMessage({ result });
} catch (error) {
  port.postMessage({ error: errorToData(systemErrorAsOda(error)) });
} finally {
  closeAllIndexes();
}
