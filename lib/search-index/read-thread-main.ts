/**
 * An index reader thread's body (`read-pool.ts`): reads the chats the
 * refresh's thread sends and posts their entries back. Loaded by
 * `read-thread.mjs` through tsx in a clone, and compiled under that name
 * beside the package's bundles (`scripts/pack/build.mjs`).
 */
import { parentPort, workerData } from "node:worker_threads";
import { type ReaderData, serveReads } from "./read-pool";

if (!parentPort) throw new Error("The index reader runs only as a worker thread.");
serveReads(parentPort, workerData as ReaderData);
