// The server's decode worker: runs `lib/sessions/worker-api.ts` on its own
// thread so that decoding a log (a zstd bomb included) never blocks the
// server's event loop. A plain .mjs file outside the bundle: Next's build does
// not touch it, and tsx (as for the CLI) runs the TypeScript core as it is.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { workerApi, prepareWorker } = await import(pathToFileURL(join(root, "lib", "sessions", "worker-api.ts")).href);
for (const problem of prepareWorker(workerData?.state ?? null)) console.error(`oda-admin: ${problem}`);

/** An error as plain data: an OdaError keeps its code and sentence. */
function errorData(error) {
  return {
    name: error?.name ?? "Error",
    code: error?.code,
    message: error?.message ?? String(error),
  };
}

parentPort.on("message", async ({ id, fn, args }) => {
  try {
    const result = workerApi[fn](...args);
    if (result && typeof result[Symbol.asyncIterator] === "function") {
      for await (const item of result) parentPort.postMessage({ id, item });
      parentPort.postMessage({ id, done: true });
    } else parentPort.postMessage({ id, done: true, value: await result });
  } catch (error) {
    parentPort.postMessage({ id, error: errorData(error) });
  }
});
parentPort.postMessage({ ready: true });
