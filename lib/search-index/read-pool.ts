import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MessagePort, type ResourceLimits, Worker } from "node:worker_threads";
import { type LogLimits, logLimits, setLogLimits } from "../chats/limits";
import { isOdaError, OdaError } from "../errors";
import { readChat } from "./chat-read";
import { FLUSH_CHARS } from "./log-reader";
import type { ReadMessage, ReadTask } from "./read-messages";
import { packMessage, unpackMessage } from "./read-wire";
import { TextCodec } from "./text-codec";

/**
 * Where a refresh's chats are read: on reader threads while the refresh's own
 * thread only writes to SQLite (decoding, parsing, extracting and compressing
 * a log cost about as much as inserting it), or in the refresh's thread for a
 * small refresh, where starting a thread would cost more than it saves. Each
 * chat's messages reach the writer in order; a reader holds at most
 * `UNACKED` batches the writer has not applied, so memory stays bounded
 * however far the writer falls behind.
 */

/** What the refresh does with the chats as they are read. */
export interface ReadHandlers {
  /** Applies one message of chat `i` (synchronously; a throw ends the whole read). */
  apply(i: number, message: ReadMessage): void;
  /**
   * Chat `i` was read (`error`: why it could not be; `unreadable`: the sentences of the files or folder of it
   * the system would not give, so the chat was read without them); a throw ends the whole read.
   */
  done(i: number, error: unknown, unreadable?: string[]): void;
  /** True to start no further chat. */
  stopped(): boolean;
}

/**
 * The chats to read, each made when it is handed to a reader (its index row read then): a build of 100,000
 * chats holds only the ones in flight, not 100,000 tasks and rows.
 */
export interface TaskList {
  length: number;
  at(i: number): ReadTask;
}

/** Batches a reader hands over before waiting for the writer. */
const UNACKED = 4;
/**
 * Chats a reader reads at once: while one waits for its decode (on the thread pool) or the writer, the next
 * does its own file reads and parsing. One at a time, a reader of 10,000 small chats sat idle a fifth of the time.
 */
const CONCURRENT = 3;
/** Chats queued on a reader, those it reads included. */
const AHEAD = CONCURRENT + 3;

const MiB = 1024 ** 2;
/**
 * A reader's young generation, in MiB. V8's default for a thread on a 64-bit machine is 48 MiB (three 16 MiB
 * semi-spaces); a reader's young objects are one chat's lines and entries at a time, so a few MiB hold them.
 */
const READER_YOUNG_MIB = 4;
/**
 * Room for what a reader holds whatever its chats (its code, codec and queue): 6 MiB live after full collections
 * in a 10,000-chat build, up to 27 MiB before one.
 */
const READER_BASE_MIB = 64;
/** An old generation bound past which it is not set: V8's own default for a thread (4 GiB on 64-bit). */
const READER_OLD_MAX_MIB = 4096;

/**
 * The heap bounds of a reader thread, from the log limits it reads under. Without bounds each reader's heap grew
 * to 50–58 MiB for the 6 MiB it holds live: V8 sizes a thread's heap from the machine's memory, not from what it
 * holds. A 10,000-chat build peaked at 224–240 MiB without them, 158–160 MiB with them, 177–183 MiB with the
 * young bound alone (an old bound of 2 GiB or more gave up most of the old bound's part).
 * The old generation must still hold the largest chats a reader may read at once, or the reader stops with
 * "out of memory" and the refresh with it: each of its `CONCURRENT` chats holds a line of up to `maxLineBytes`
 * several times over (the decoded line, its JSON, the entry's text, the batch's JSON, two bytes a character
 * for text that is not Latin-1) and a batch of up to `FLUSH_CHARS` characters. Measured: three chats of
 * 15.5 MiB lines held 207 MiB live in one reader (about 4.5 times each line); 8 times is kept. A bound past
 * V8's own default is left unset.
 */
export function readerResourceLimits(limits: LogLimits): ResourceLimits {
  const perChat = (8 * limits.maxLineBytes + 4 * 2 * FLUSH_CHARS) / MiB;
  const old = Math.ceil(READER_BASE_MIB + CONCURRENT * perChat);
  return {
    maxYoungGenerationSizeMb: READER_YOUNG_MIB,
    ...(old <= READER_OLD_MAX_MIB ? { maxOldGenerationSizeMb: old } : {}),
  };
}

/** A reader thread's file: the clone's launcher beside this module, or the package's compiled one. */
function threadFile(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, "read-thread.mjs");
  return existsSync(file) ? file : null;
}

/** The error data a reader posts, and the error it stands for. */
interface ErrorData {
  name: string;
  code?: unknown;
  message: string;
  oda: boolean;
  /** A system error's call and path (`lib/fs/system-error.ts` words it from them). */
  syscall?: string;
  path?: string;
}
const toData = (e: unknown): ErrorData => {
  const x = e as { name?: string; code?: unknown; message?: string; syscall?: string; path?: string } | null;
  return {
    name: x?.name ?? "Error",
    code: x?.code,
    message: x?.message ?? String(e),
    oda: isOdaError(e),
    syscall: typeof x?.syscall === "string" ? x.syscall : undefined,
    path: typeof x?.path === "string" ? x.path : undefined,
  };
};
function fromData(d: ErrorData): Error {
  if (d.oda) return new OdaError(d.code as ConstructorParameters<typeof OdaError>[0], d.message);
  return Object.assign(new Error(d.message), { name: d.name, code: d.code, syscall: d.syscall, path: d.path });
}

/** An error the writer threw, carried out of the reader's callback untouched. */
class WriterFailed extends Error {
  constructor(readonly error: unknown) {
    super("writer failed");
  }
}

/** Reads every task in this thread, one chat after the other. */
async function readHere(tasks: TaskList, h: ReadHandlers, codec: TextCodec): Promise<void> {
  for (let i = 0; i < tasks.length && !h.stopped(); i++) {
    let error: unknown = null;
    let unreadable: string[] = [];
    try {
      unreadable = await readChat(
        tasks.at(i),
        async (m) => {
          try {
            h.apply(i, m);
          } catch (e) {
            throw new WriterFailed(e);
          }
        },
        codec,
      );
    } catch (e) {
      if (e instanceof WriterFailed) throw e.error;
      error = e;
    }
    h.done(i, error, unreadable);
    // A turn of the event loop between chats: a server answering meanwhile keeps answering.
    await new Promise<void>((next) => setImmediate(next));
  }
}

/** A reader's message: a chat's message packed (`read-wire.ts`), or the chat's end. */
type FromReader = { i: number; m: Uint8Array } | { i: number; end: true; error?: ErrorData; unreadable?: string[] };
/** To a reader: batches applied since the last ack, chats to read, or the dictionary made meanwhile. */
type ToReader = { ack: number } | { tasks: { i: number; task: ReadTask }[] } | { dictionary: Uint8Array };

/** What a reader thread starts with. */
export interface ReaderData {
  limits: LogLimits;
  dictionary: Uint8Array | null;
}

/** Reads the tasks on `threads` reader threads, applying their messages here as they arrive. */
function readOnThreads(
  file: string,
  threads: number,
  tasks: TaskList,
  h: ReadHandlers,
  codec: TextCodec,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let next = 0;
    let finished = false;
    const assigned = new Map<Worker, number>();
    const finish = (error?: unknown) => {
      if (finished) return;
      finished = true;
      for (const w of assigned.keys()) void w.terminate();
      if (error === undefined) resolve();
      else reject(error);
    };
    const feed = (w: Worker) => {
      const given: { i: number; task: ReadTask }[] = [];
      while ((assigned.get(w) ?? 0) < AHEAD && next < tasks.length && !h.stopped()) {
        given.push({ i: next, task: tasks.at(next) });
        next++;
        assigned.set(w, (assigned.get(w) ?? 0) + 1);
      }
      if (given.length) w.postMessage({ tasks: given } satisfies ToReader);
      const idle = [...assigned.values()].every((n) => n === 0);
      if (idle && (next >= tasks.length || h.stopped())) finish();
    };
    for (let k = 0; k < threads; k++) {
      const limits = logLimits();
      const workerData: ReaderData = { limits, dictionary: codec.dictionary };
      const w = new Worker(/*turbopackIgnore: true*/ file, {
        workerData,
        resourceLimits: readerResourceLimits(limits),
      });
      assigned.set(w, 0);
      // A reader's messages of one turn come together (`serveReads`): one ack for their batches, one feed.
      w.on("message", (messages: FromReader[]) => {
        let applied = 0;
        let ended = false;
        try {
          for (const msg of messages) {
            if (finished) return;
            if ("m" in msg) {
              h.apply(msg.i, unpackMessage(msg.m));
              applied++;
              continue;
            }
            assigned.set(w, (assigned.get(w) ?? 1) - 1);
            h.done(msg.i, msg.error ? fromData(msg.error) : null, msg.unreadable);
            ended = true;
          }
          if (applied) w.postMessage({ ack: applied } satisfies ToReader);
          if (ended) feed(w);
        } catch (error) {
          finish(error);
        }
      });
      w.on("error", (error) => finish(error));
      w.on("exit", (code) => finish(new Error(`An index reader thread stopped (exit ${code}).`)));
    }
    // A dictionary made while they read: the blocks they compress from then on use it.
    codec.onMade((dictionary) => {
      for (const w of assigned.keys()) w.postMessage({ dictionary } satisfies ToReader);
    });
    for (const w of assigned.keys()) feed(w);
  });
}

/**
 * Reads the tasks with their messages applied through `h`: on up to `threads`
 * reader threads (0: in this thread, as when no reader thread file is at hand),
 * their text compressed with `codec`'s dictionary once it has one.
 * Returns the number of reader threads used.
 */
export async function readChats(tasks: TaskList, threads: number, h: ReadHandlers, codec: TextCodec): Promise<number> {
  const file = threads > 0 ? threadFile() : null;
  if (!file || !tasks.length) {
    await readHere(tasks, h, codec);
    return 0;
  }
  const used = Math.max(1, Math.min(threads, tasks.length));
  await readOnThreads(file, used, tasks, h, codec);
  return used;
}

/** A reader thread's body: reads the chats it is sent, `CONCURRENT` at a time, waiting when `UNACKED` batches are unapplied. */
export function serveReads(port: MessagePort, { limits, dictionary }: ReaderData): void {
  // The same log limits as the refresh's own thread.
  setLogLimits(limits);
  const codec = new TextCodec(dictionary ? Buffer.from(dictionary) : null);
  const queue: { i: number; task: ReadTask }[] = [];
  let credits = UNACKED;
  const waiting: (() => void)[] = [];
  let running = 0;
  // What this turn of the event loop posts goes in one message: the chats read at once reach the same points
  // together (their heads decode in one call), and each message wakes the writer's thread.
  const outbox: FromReader[] = [];
  const moved: ArrayBuffer[] = [];
  const post = (msg: FromReader, buffer?: ArrayBuffer) => {
    if (!outbox.length) setImmediate(() => port.postMessage(outbox.splice(0), moved.splice(0)));
    outbox.push(msg);
    if (buffer) moved.push(buffer);
  };
  const pump = async () => {
    if (running >= CONCURRENT) return;
    running++;
    for (let job = queue.shift(); job; job = queue.shift()) {
      const { i, task } = job;
      try {
        const unreadable = await readChat(
          task,
          async (m) => {
            if (credits <= 0) await new Promise<void>((go) => waiting.push(go));
            credits--;
            const packed = packMessage(m);
            post({ i, m: packed }, packed.buffer as ArrayBuffer);
          },
          codec,
        );
        post({ i, end: true, unreadable });
      } catch (error) {
        post({ i, end: true, error: toData(error) });
      }
    }
    running--;
  };
  port.on("message", (msg: ToReader) => {
    if ("dictionary" in msg) codec.dictionary = Buffer.from(msg.dictionary);
    else if ("ack" in msg) {
      credits += msg.ack;
      for (let k = 0; k < msg.ack; k++) waiting.shift()?.();
    } else {
      queue.push(...msg.tasks);
      for (const _ of msg.tasks) void pump();
    }
  });
}
