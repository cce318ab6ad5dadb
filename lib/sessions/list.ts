import { type ChatSummary, summarizeChat } from "./chat";
import { type Problem, walkLogFolder } from "./folder";

/** The longest stretch the listing keeps the event loop busy with sync reads. */
const SLICE_MS = 8;

/** One batch of the chat list. The first batch carries the folder-level problems. */
export interface ChatBatch {
  chats: ChatSummary[];
  /** Folder-level problems: names that do not decode, chats stored twice. */
  problems: Problem[];
  /** Chats read so far, and in all. */
  done: number;
  total: number;
}

/** Options for `listChats`. */
export interface ListChatsOptions {
  /** The folder's form, `sessions.compress` from settings (default true). */
  compress?: boolean;
  /** Read every log whole even where the checkpoint could be served (doctor). */
  verify?: boolean;
  /** Chats per batch (default 200). */
  batchSize?: number;
  /** Decoded bytes a zstd batch aims at when a log is read whole (`DecodeZstdOptions.batchOutput`). */
  batchOutput?: number;
  /** Called after each batch. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Lists every chat of a log folder in batches, so the first chats show before
 * the listing ends. Names are read first (to find chats stored twice), then
 * each chat's details: from its checkpoint when it holds, else from its log.
 */
export async function* listChats(logDir: string, options: ListChatsOptions = {}): AsyncGenerator<ChatBatch> {
  const walk = walkLogFolder(logDir);
  const total = walk.chats.length;
  const size = options.batchSize ?? 200;
  let problems = walk.problems;
  let done = 0;
  if (!total) {
    options.onProgress?.(0, 0);
    yield { chats: [], problems, done: 0, total: 0 };
    return;
  }
  const compress = options.compress ?? true;
  let slice = performance.now();
  for (let i = 0; i < total; i += size) {
    // A chat's files are read with sync calls, several times cheaper than async ones for files this small
    // (bench:sessions); the loop gives the event loop a turn every few milliseconds so a server stays
    // responsive. Chats are started one after another and awaited together: the native decodes of first
    // frames not seen before overlap on the thread pool.
    const pending: Promise<ChatSummary>[] = [];
    for (const loc of walk.chats.slice(i, i + size)) {
      const summary = summarizeChat(loc, { compress, verify: options.verify, batchOutput: options.batchOutput });
      // Awaited below with the rest of the batch; handled now so a failure is not reported as unhandled meanwhile.
      summary.catch(() => {});
      pending.push(summary);
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    const chats = await Promise.all(pending);
    done += chats.length;
    options.onProgress?.(done, total);
    yield { chats, problems, done, total };
    problems = [];
  }
}

/** The whole list at once (tests, `--json`). */
export async function listAllChats(
  logDir: string,
  options: ListChatsOptions = {},
): Promise<{ chats: ChatSummary[]; problems: Problem[] }> {
  const chats: ChatSummary[] = [];
  const problems: Problem[] = [];
  for await (const batch of listChats(logDir, options)) {
    chats.push(...batch.chats);
    problems.push(...batch.problems);
  }
  return { chats, problems };
}
