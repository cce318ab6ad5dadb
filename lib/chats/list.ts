import type { ChatSummary, SummarizeOptions } from "./chat";
import { type Problem, scanLogFolder } from "./folder";
import { ListPool, listThreadCount, listThreadFile, summarizeAll } from "./list-pool";
import type { ListingCounts, ListingMemory } from "./remembered";

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
  /** So far: chats served from the listing's memory, verified again, rebuilt from their logs. */
  counts: ListingCounts;
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
  /** Keep decoded first lines for the next listing in this process (`SummarizeOptions.memo`): a server. */
  memo?: boolean;
  /** Called after each batch. */
  onProgress?: (done: number, total: number) => void;
  /**
   * List a large folder's chats on worker threads (`list-pool.ts`), in the
   * same order: `true` as many as the folder and the machine are worth (the
   * CLI), a number for exactly that many. Off by default: a server lists on
   * its decode worker already.
   */
  threads?: boolean | number;
  /**
   * The admin state's memory of earlier listings (`remembered.ts`): a chat
   * whose folder, newest log and checkpoint are unchanged (and not racy) is
   * served from it; every other chat is read by the full rule and remembered.
   * Not used with `verify`.
   */
  memory?: ListingMemory | null;
  /**
   * Reads a chat's current log whole in place of `rebuildDetails` (`SummarizeOptions.rebuild`): a support
   * bundle redacts each log in the same read the doctor makes of it. Lists on this thread.
   */
  rebuild?: SummarizeOptions["rebuild"];
}

/**
 * Lists every chat of a log folder in batches, so the first chats show before
 * the listing ends. Names are read first (to find chats stored twice), then
 * each chat's details: from its checkpoint when it holds, else from its log.
 */
export async function* listChats(logDir: string, options: ListChatsOptions = {}): AsyncGenerator<ChatBatch> {
  const walk = scanLogFolder(logDir);
  const total = walk.total;
  const size = options.batchSize ?? 200;
  let problems = walk.problems;
  let done = 0;
  const counts: ListingCounts = { memory: 0, verified: 0, rebuilt: 0 };
  if (!total) {
    options.onProgress?.(0, 0);
    yield { chats: [], problems, done: 0, total: 0, counts };
    return;
  }
  const memory = options.verify ? null : (options.memory ?? null);
  const summarize: SummarizeOptions = {
    compress: options.compress ?? true,
    verify: options.verify,
    batchOutput: options.batchOutput,
    memo: options.memo,
    identify: !!memory,
    rebuild: options.rebuild,
  };
  const file = options.threads && !options.rebuild ? listThreadFile() : null;
  const threads = !file ? 0 : options.threads === true ? listThreadCount(total) : Number(options.threads);
  const pool = file && threads ? new ListPool(file, threads, summarize) : null;
  try {
    // Two batches per thread in flight keep every thread busy while the caller writes (and, on this thread,
    // while one batch waits for its first frames' native decode, the next one reads its files); no more, so
    // 100,000 chats never wait in memory for a slow reader.
    const ahead = 2 * Math.max(1, threads);
    const pending: Promise<ChatSummary[]>[] = [];
    let next = 0;
    const refill = () => {
      while (next < total && pending.length < ahead) {
        // Locations are made a batch at a time: the walk keeps only names.
        const batch = walk.chatsAt(next, next + size);
        next += size;
        // Chats the memory serves are not read; the others are read by the full rule, then remembered.
        const served = memory ? memory.serve(batch) : [];
        const toRead = memory ? batch.filter((_, i) => !served[i]) : batch;
        // On this thread, the event loop gets a turn every few milliseconds so a server stays responsive.
        const read = !toRead.length
          ? Promise.resolve([])
          : pool
            ? pool.summarize(toRead)
            : summarizeAll(toRead, summarize, SLICE_MS);
        const listed = !memory ? read : read.then((chats) => merge(served, chats, memory, counts));
        listed.catch(() => {}); // awaited in order below; handled now so a failure meanwhile is not unhandled
        pending.push(listed);
      }
    };
    refill();
    while (pending.length) {
      const chats = await (pending.shift() as Promise<ChatSummary[]>);
      refill();
      done += chats.length;
      if (!memory) for (const chat of chats) count(chat, counts);
      options.onProgress?.(done, total);
      yield { chats, problems, done, total, counts: { ...counts } };
      problems = [];
    }
  } finally {
    await pool?.close();
  }
}

/** Counts a chat read by the full rule: verified again, or rebuilt from its log. */
function count(chat: ChatSummary, counts: ListingCounts): void {
  if (chat.cached || !chat.generations.some((g) => g.current)) counts.verified++;
  else counts.rebuilt++;
}

/** The batch in its order: the chats served from memory, and those just read (remembered now). */
function merge(
  served: (ChatSummary | null)[],
  read: ChatSummary[],
  memory: ListingMemory,
  counts: ListingCounts,
): ChatSummary[] {
  memory.remember(read);
  let r = 0;
  return served.map((chat) => {
    if (chat) {
      counts.memory++;
      return chat;
    }
    const fresh = read[r++] as ChatSummary;
    count(fresh, counts);
    delete fresh.verified;
    return fresh;
  });
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
