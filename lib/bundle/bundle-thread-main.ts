/**
 * The bundle thread's body: one bundle made (or previewed) on a worker thread
 * of its own, with its own heap limit (`lib/bundle/in-worker.ts`), so reading
 * and redacting every chosen file never pauses the thread that started it (a
 * dashboard's, a CLI's progress). It posts `{ progress }` as it goes, then
 * `{ result }` or `{ error }`, and ends. Loaded by `bundle-thread.mjs` through
 * tsx in a clone, and compiled by esbuild into the package
 * (`scripts/pack/build.mjs`).
 */

import { parentPort, workerData } from "node:worker_threads";
import { errorToData } from "../errors";
import { systemErrorAsOda } from "../fs/system-error";
import { lowerThisThread } from "../thread-priority";
import { type BundleProgress, createBundle, listedFiles, prepareBundle } from "./create";
import type { BundleResult, BundleTask } from "./in-worker";
import { PREVIEW_FILES } from "./preview";

const port = parentPort;
if (!port) throw new Error("The bundle thread runs only as a worker thread.");
const task = workerData as BundleTask;
if (task.background) lowerThisThread();

// Progress at most every 100 ms (and at each change of phase): a bundle of many small files reports per file.
let last = 0;
let phase = "";
const onProgress = (p: BundleProgress) => {
  const now = Date.now();
  if (p.phase === phase && now - last < 100 && p.done < p.total) return;
  last = now;
  phase = p.phase;
  port.postMessage({ progress: p });
};

try {
  let result: BundleResult;
  if (task.target === null) {
    const prepared = await prepareBundle(task.roots, task.scope, null, { version: task.version, onProgress });
    prepared.dispose();
    result = { file: null, mapFile: null, manifest: prepared.manifest };
  } else {
    const made = await createBundle(task.roots, task.scope, task.target, { version: task.version, onProgress });
    // Counts and the first files, as a preview sends: 200,000 files' entries copied to the thread that asked
    // would be held twice (the list is in the bundle's manifest.json).
    result = { ...made, manifest: { ...made.manifest, files: listedFiles(made.manifest, PREVIEW_FILES) } };
  }
  port.postMessage({ result });
} catch (error) {
  port.postMessage({ error: errorToData(systemErrorAsOda(error)) });
}
