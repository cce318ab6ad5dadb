import { type ActivityItem, chatActivity } from "./activity";
import { type ChatSummary, summarizeChat } from "./chat";
import { type FilterPage, filterLines, type LineFilter, toolCounts } from "./filter";
import { type ChatLocation, locateChat, walkLogFolder } from "./folder";
import { readLogLimits, setLogLimits } from "./limits";
import { cachedIndex, type LinesResult, type LongLine, rememberIndexesIn, type TailReport } from "./line-index";
import { streamLineBytes } from "./line-stream";
import { type ChatBatch, listChats } from "./list";
import type { SeekPoint } from "./log-stream";
import { outlineChat } from "./outline";
import type { Problem } from "./problem";
import { indexChat, openChatDownload, type ReadOptions, readChat, readLines } from "./read";
import { openListingMemory, rememberedLineCount, rememberedLineIndex, rememberLineIndex } from "./remembered";

/**
 * The reads a server runs on its decode worker (`server/workers/decode-thread.mjs`), so
 * that decoding and splitting a log never holds up the server's event loop.
 * Every function takes and returns plain, cloneable data; the line index
 * cache lives in the worker, so calls that use it go through here too.
 */

/** A chat's details for the inspector, as `chatDetails` reads them. */
export interface ChatDetailsRead {
  chat: ChatSummary;
  /** Known once the log has been read whole (here or by an earlier index). */
  lines: number | null;
  decompressedBytes: number | null;
  readWhole: boolean;
}

/** What Home shows of a log folder without a built index (`folderGlance`). */
export interface FolderGlance {
  chats: number;
  groups: number;
  problems: Problem[];
}

/** A log's index as the status route shows it (the seek points stay in the worker). */
export interface IndexSummary {
  path: string;
  compressed: boolean;
  lines: number;
  decodedBytes: number;
  size: number;
  tail: TailReport;
  error: string | null;
  longLines: LongLine[];
}

/** The first piece of `downloadLog`: which log it is (for the answer's headers). */
export interface DownloadHead {
  generation: string;
  compressed: boolean;
}

/**
 * Pieces of a download cross to the server one at a time, each at most this
 * big and in a buffer of its own, so it is moved (transferred), not copied, and
 * the server never holds more than one piece of a download.
 */
const DOWNLOAD_PIECE = 1024 * 1024;

async function* inPieces(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let at = 0; at < bytes.length; at += DOWNLOAD_PIECE)
      yield new Uint8Array(bytes.subarray(at, at + DOWNLOAD_PIECE));
  }
}

/** The reads, by name. */
export const workerApi = {
  /** Summary; a log up to `readWholeMaxBytes` is read whole, a larger one is served from its checkpoint. */
  async chatDetails(
    logDir: string,
    id: string,
    compress: boolean,
    readWholeMaxBytes: number,
  ): Promise<ChatDetailsRead> {
    // The outline sizes the logs without reading them, so a log read whole is read once, not summarised first.
    const current = outlineChat(logDir, id, { compress }).generations.find((g) => g.current);
    const readWhole = !current || current.bytes <= readWholeMaxBytes;
    if (readWhole) {
      const whole = await readChat(logDir, id, { compress });
      return { chat: whole, lines: whole.lines, decompressedBytes: whole.decompressedBytes, readWhole };
    }
    const summary = await rememberedSummary(locateChat(logDir, id), compress);
    const index = cachedIndex(current.path);
    // Counted at an earlier visit (or by an earlier server): served while the log's identity is unchanged.
    const known = index ?? rememberedLineCount(workerState, current.path);
    return { chat: summary, lines: known?.lines ?? null, decompressedBytes: known?.decodedBytes ?? null, readWhole };
  },

  readLines(
    logDir: string,
    id: string,
    options: ReadOptions & { from: number; count: number },
  ): Promise<LinesResult & { generation: string }> {
    return readLines(logDir, id, options);
  },

  /** A page of the log filtered with context (`filter.ts`). */
  filterLines(
    logDir: string,
    id: string,
    filter: LineFilter,
    options: ReadOptions & { from: number; count: number; context: number },
  ): Promise<FilterPage> {
    return filterLines(logDir, id, filter, options);
  },

  /** The tools the log calls, with counts. */
  toolCounts(logDir: string, id: string, options: ReadOptions): Promise<[string, number][]> {
    return toolCounts(logDir, id, options);
  },

  /** The activity strip: progress items while the log is read, then the strip (bounded memory, any size). */
  chatActivity(logDir: string, id: string, options: ReadOptions): AsyncGenerator<ActivityItem> {
    return chatActivity(logDir, id, options);
  },

  async indexChat(logDir: string, id: string, options: ReadOptions): Promise<IndexSummary> {
    const index = await indexChat(logDir, id, options);
    // Taken again with the log's identity now (a touch since the read keeps the index, not its old identity).
    rememberLineIndex(workerState, index);
    const { path, compressed, lines, decodedBytes, size, tail, error, longLines } = index;
    return { path, compressed, lines, decodedBytes, size, tail, error, longLines };
  },

  /** Where to start decoding to reach line `n`: the nearest seek point before it (the index is built first). */
  async seekPoint(
    logDir: string,
    id: string,
    options: ReadOptions,
    n: number,
  ): Promise<{ path: string; compressed: boolean; lines: number; point: SeekPoint }> {
    const index = await indexChat(logDir, id, options);
    let point: SeekPoint = index.points[0] ?? { line: 0, dec: 0, comp: 0 };
    for (const p of index.points) if (p.line < n) point = p;
    return { path: index.path, compressed: index.compressed, lines: index.lines, point };
  },

  /** A chat's log decompressed, for its download: its `DownloadHead`, then its bytes (pulled piece by piece). */
  async *downloadLog(logDir: string, id: string, options: ReadOptions): AsyncGenerator<DownloadHead | Uint8Array> {
    const { generation, stream } = openChatDownload(logDir, id, { ...options, form: "decompressed" });
    try {
      yield { generation: generation.name, compressed: generation.compressed };
      yield* inPieces(stream);
    } finally {
      stream.destroy();
    }
  },

  /** One line's bytes, decoded from a seek point before it (pulled piece by piece). */
  downloadLine(path: string, compressed: boolean, from: SeekPoint, n: number): AsyncGenerator<Uint8Array> {
    return inPieces(streamLineBytes(path, compressed, from, n));
  },

  /**
   * Home's glance at a log folder before the search index is built: its chats, their working-folder groups and
   * the folder's own problems (`walkLogFolder`: more than a second at 100,000 chats, so not on the server's
   * event loop). Throws as the walk does when the folder cannot be read.
   */
  folderGlance(logDir: string): FolderGlance {
    const walk = walkLogFolder(logDir);
    return {
      chats: walk.chats.length,
      groups: new Set(walk.chats.map((c) => c.group)).size,
      problems: walk.problems,
    };
  },

  /** The folder listed, chats unchanged since the last listing served from the admin state's memory (`remembered.ts`). */
  async *listChats(logDir: string, compress: boolean, batchSize: number): AsyncGenerator<ChatBatch> {
    const memory = openListingMemory(workerState, compress);
    try {
      yield* listChats(logDir, { compress, batchSize, memo: true, memory });
    } finally {
      memory?.close();
    }
  },
};

/**
 * A big chat's details as its page shows them: served from the listing's memory while the chat's three
 * identities are unchanged (the contract's rule, `remembered.ts`), else read by the full rule and remembered.
 * A log without a checkpoint is then not read whole again at each visit of its page.
 */
async function rememberedSummary(loc: ChatLocation, compress: boolean): Promise<ChatSummary> {
  const memory = openListingMemory(workerState, compress);
  try {
    const served = memory?.serve([loc])[0] ?? null;
    const read = served ?? (await summarizeChat(loc, { compress, identify: !!memory }));
    if (!served) memory?.remember([read]);
    const { verified: _verified, remembered: _remembered, ...chat } = read;
    return chat;
  } finally {
    memory?.close();
  }
}

/** The admin state the worker was started for (`prepareWorker`): where the listing's memory lives. */
let workerState: string | null = null;

/** The worker's functions and their types, for the client side. */
export type WorkerApi = typeof workerApi;

/** Applies the admin state's log limits in the worker (its problems are the server's to report). */
export function prepareWorker(state: string | null): string[] {
  workerState = state;
  // A big log's line index outlives this thread (it ends when idle) while the log is unchanged.
  rememberIndexesIn(
    state
      ? { recall: (path) => rememberedLineIndex(state, path), keep: (index) => rememberLineIndex(state, index) }
      : null,
  );
  const { limits, problems } = readLogLimits(state);
  setLogLimits(limits);
  return problems;
}
