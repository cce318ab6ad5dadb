/**
 * The decode worker's body: runs `lib/sessions/worker-api.ts` on its own
 * thread so that decoding a log (a zstd bomb included) never blocks the
 * server's event loop. Loaded by `server/decode-thread.mjs` through tsx in a
 * clone, and bundled by esbuild into the package's server (`scripts/pack/build.mjs`).
 */
import { parentPort, workerData } from "node:worker_threads";
import { prepareWorker, workerApi } from "../lib/sessions/worker-api";

/** An error as plain data: an OdaError keeps its code and sentence. */
function errorData(error: unknown): { name: string; code: unknown; message: string } {
  const e = error as { name?: string; code?: unknown; message?: string } | null;
  return { name: e?.name ?? "Error", code: e?.code, message: e?.message ?? String(error) };
}

const port = parentPort;
if (!port) throw new Error("The decode worker runs only as a worker thread.");
for (const problem of prepareWorker(workerData?.state ?? null)) console.error(`oda-admin: ${problem}`);

type Call = { id: number; fn: keyof typeof workerApi; args: unknown[] };

port.on("message", async ({ id, fn, args }: Call) => {
  try {
    const result: unknown = (workerApi[fn] as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
      for await (const item of result as AsyncIterable<unknown>) port.postMessage({ id, item });
      port.postMessage({ id, done: true });
    } else port.postMessage({ id, done: true, value: await result });
  } catch (error) {
    port.postMessage({ id, error: errorData(error) });
  }
});
port.postMessage({ ready: true });
