/**
 * The decode worker's body: runs `server/workers/decode-api.ts` (the reads of
 * `lib/chats/worker-api.ts`, the index's folder check) on its own
 * thread so that decoding a log (a zstd bomb included) never blocks the
 * server's event loop. Loaded by `server/workers/decode-thread.mjs` through tsx in a
 * clone, and bundled by esbuild into the package's server (`scripts/pack/build.mjs`).
 */

import { parentPort, workerData } from "node:worker_threads";
import { prepareWorker } from "../../lib/chats/worker-api";
import { errorToData } from "../../lib/errors";
import { systemErrorAsOda } from "../../lib/fs/system-error";
import { startThreadHeapReport } from "../views/loop-report";
import { decodeApi } from "./decode-api";

const port = parentPort;
if (!port) throw new Error("The decode worker runs only as a worker thread.");
for (const problem of prepareWorker(workerData?.state ?? null)) console.error(`oda-admin: ${problem}`);
// For benches, read once at this thread's start as the server's start reads it: the thread's heap beside the loop report.
const loopReport = process.env.ODA_LOOP_REPORT;
if (loopReport) startThreadHeapReport(loopReport, workerData?.lane ?? "decode");

/**
 * A call; `pull` calls yield one item per `next` message (a download, paced by its reader). With `flag`
 * (shared memory the caller sets to 1 when nobody waits any more), the function gets `cancelled` as its last
 * argument: it looks at the flag during a synchronous walk, where no message could reach it.
 */
type Call = { id: number; fn: keyof typeof decodeApi; args: unknown[]; pull?: boolean; flag?: Int32Array };
type Step = { id: number; next?: true; cancel?: true };

const pulled = new Map<number, AsyncIterator<unknown>>();

/** Sends an item; a byte buffer of its own is moved to the server, not copied. */
function send(id: number, item: unknown): void {
  const whole = item instanceof Uint8Array && item.byteOffset === 0 && item.byteLength === item.buffer.byteLength;
  port?.postMessage({ id, item }, whole ? [(item as Uint8Array).buffer as ArrayBuffer] : []);
}

async function step({ id, next, cancel }: Step): Promise<void> {
  const it = pulled.get(id);
  if (!it) return;
  try {
    if (cancel) {
      pulled.delete(id);
      await it.return?.();
      return;
    }
    if (!next) return;
    const r = await it.next();
    if (r.done) {
      pulled.delete(id);
      port?.postMessage({ id, done: true });
    } else send(id, r.value);
  } catch (error) {
    pulled.delete(id);
    port?.postMessage({ id, error: errorToData(systemErrorAsOda(error)) });
  }
}

port.on("message", async (message: Call | Step) => {
  if (!("fn" in message)) return step(message);
  const { id, fn, args, pull, flag } = message;
  try {
    const call = flag ? [...args, () => Atomics.load(flag, 0) !== 0] : args;
    const result: unknown = (decodeApi[fn] as (...a: unknown[]) => unknown)(...call);
    if (pull) {
      pulled.set(id, (result as AsyncIterable<unknown>)[Symbol.asyncIterator]());
      return;
    }
    if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
      for await (const item of result as AsyncIterable<unknown>) port.postMessage({ id, item });
      port.postMessage({ id, done: true });
    } else port.postMessage({ id, done: true, value: await result });
  } catch (error) {
    port.postMessage({ id, error: errorToData(systemErrorAsOda(error)) });
  }
});
port.postMessage({ ready: true });
