import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import fc from "fast-check";
import { locateChat } from "../../lib/chats/folder";
import { listAllChats } from "../../lib/chats/list";
import { decodeName, parseGroupName } from "../../lib/chats/names";
import { openChatDownload, readLines } from "../../lib/chats/read";
import { isOdaError } from "../../lib/errors";
import { BAD_KINDS, buildTree, FILE_NAMES, type Planted, prepareOutside, treeArb } from "./fuzz-folder-tree";

/**
 * Fuzz (issue 10, the fuzz convention): random log folders of hostile entries
 * (`fuzz-folder-tree.ts`) run through the real listing, locate, lines and
 * download code, and the CLI's `doctor` for a few. Fails, with the folder
 * shown, on a crash, a hang, a hostile entry not reported with a sentence, or
 * the outside canary in any output. One input is one planted entry.
 */

const HANG_MS = 20_000;
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "../../bin/oda-admin");

/**
 * A FIFO opened blocking stops the thread for good, so no timer of it can
 * fire. A worker thread watches instead: past the deadline it flags the hang
 * and opens the planted FIFOs for writing, which lets a blocked reader go on
 * (it reads an end of file) and the run fail with its input instead of hanging.
 */
const WATCHDOG = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const flag = new Int32Array(workerData);
let timer = null;
const release = (fifos) => {
  Atomics.store(flag, 0, 1);
  for (const p of fifos) {
    try { fs.closeSync(fs.openSync(p, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {}
  }
};
parentPort.on("message", (m) => {
  clearTimeout(timer);
  clearInterval(timer);
  if (m.type === "arm") timer = setTimeout(() => { release(m.fifos); timer = setInterval(() => release(m.fifos), 100); }, m.ms);
});`;

function startWatchdog() {
  const shared = new SharedArrayBuffer(4);
  const flag = new Int32Array(shared);
  const worker = new Worker(WATCHDOG, { eval: true, workerData: shared });
  worker.unref();
  return {
    arm: (fifos: string[]) => {
      Atomics.store(flag, 0, 0);
      worker.postMessage({ type: "arm", fifos, ms: HANG_MS });
    },
    disarm: () => worker.postMessage({ type: "disarm" }),
    fired: () => Atomics.load(flag, 0) === 1,
    stop: () => worker.terminate(),
  };
}

/** Rejects when `work` takes longer than the hang bound (an async hang: a promise never settling). */
function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} did not finish (hung)`)), HANG_MS);
  });
  return Promise.race([work, hang]).finally(() => clearTimeout(timer));
}

/** `oda-admin doctor --json` over the folder, as a real process. */
function doctor(logs: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "doctor", "--logs", logs, "--json"], {
      env: { ...process.env, ODA_HOME: "", ODA_ADMIN_STATE: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c;
    });
    child.stderr.on("data", (c: Buffer) => {
      out += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), HANG_MS * 3);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0 || code === 1) done(out);
      else fail(new Error(`oda-admin doctor ended with ${code} (killed when hung):\n${out}`));
    });
  });
}

/** A problem's message is a sentence: it names something and ends with a full stop (or the raw log note). */
function isSentence(message: unknown): boolean {
  return typeof message === "string" && message.length > 10 && (/\.$/.test(message) || / raw log: \S/.test(message));
}

async function readChatOutputs(logs: string, id: string, outputs: unknown[]): Promise<void> {
  try {
    outputs.push(locateChat(logs, id), await readLines(logs, id, { from: 1, count: 3 }));
    for (const form of ["raw", "decompressed"] as const) {
      const { stream } = openChatDownload(logs, id, { form });
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      outputs.push(Buffer.concat(chunks).toString("latin1"));
    }
  } catch (error) {
    if (!isOdaError(error)) throw error;
    outputs.push(error.message);
  }
}

/** Runs the real code over one planted folder and checks every rule. */
async function checkFolder(logs: string, planted: Planted): Promise<unknown[]> {
  const { chats, problems } = await listAllChats(logs, { verify: true });
  const all = [...problems, ...chats.flatMap((c) => c.problems)];
  const bad = all.find((p) => !isSentence(p.message));
  if (bad) throw new Error(`a problem without a sentence: ${JSON.stringify(bad)}`);
  const listed = new Set(chats.map((c) => join(logs, c.folder)));
  const mentioned = (path: string) => all.some((p) => p.path === path || p.message.includes(path));
  const walkedGroup = (dir: string) => dirname(dir) === logs && parseGroupName(basename(dir)) !== null;
  const outputs: unknown[] = [chats, problems];
  for (const e of planted.entries) {
    const parent = dirname(e.path);
    let reported = true;
    if (e.level === "file") {
      if (listed.has(parent) && e.kind !== "file" && FILE_NAMES.includes(basename(e.path)))
        reported = mentioned(e.path);
    } else if (e.level === "group" || walkedGroup(parent)) {
      if (BAD_KINDS.has(e.kind) || e.kind === "file") reported = mentioned(e.path);
      else if (e.kind === "folder")
        reported =
          e.level === "group" ? walkedGroup(e.path) || mentioned(e.path) : listed.has(e.path) || mentioned(e.path);
      const id = e.level === "chat" ? decodeName(basename(e.path)) : null;
      if (id !== null) await readChatOutputs(logs, id, outputs);
    }
    if (!reported) throw new Error(`${e.path} (${e.kind}) is neither listed nor reported with a sentence`);
  }
  return outputs;
}

/** The fuzz convention's entry point: `runs` random log folders; `inputs` counts the entries planted. */
export async function fuzzFolder(runs: number, seed?: number): Promise<{ inputs: number }> {
  const root = mkdtempSync(join(tmpdir(), "oda-fuzz-folder-"));
  const canary = `CANARY-${randomUUID()}`;
  const dog = startWatchdog();
  let inputs = 0;
  let n = 0;
  try {
    const { goodLog } = await prepareOutside(root, canary);
    await fc.assert(
      fc.asyncProperty(treeArb, async (tree) => {
        const run = join(root, `run-${n++}`);
        const logs = join(run, "logs");
        mkdirSync(logs, { recursive: true });
        const planted = await buildTree(logs, join(root, "outside"), tree, goodLog);
        inputs += planted.entries.length;
        dog.arm(planted.fifos);
        let outputs: unknown[];
        try {
          outputs = await bounded(checkFolder(logs, planted), "reading the folder");
        } finally {
          dog.disarm();
        }
        if (dog.fired()) throw new Error("a FIFO was opened blocking: the read hung until the watchdog opened it");
        // The CLI for the first folder and every 500th: a process start costs seconds on a busy machine.
        if (n % 500 === 1) outputs.push(await doctor(logs));
        if (JSON.stringify(outputs).includes(canary)) throw new Error("something from outside the log folder was read");
        rmSync(run, { recursive: true, force: true });
      }),
      { numRuns: runs, seed },
    );
  } finally {
    await dog.stop();
    rmSync(root, { recursive: true, force: true });
  }
  return { inputs };
}
