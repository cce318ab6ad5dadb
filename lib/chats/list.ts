import type { ChatSummary, SummarizeOptions } from "./chat";
import { type Problem, scanLogFolder } from "./folder";
import { type ChatFeed, scannedFeed, walkInTurns } from "./folder-walk";
import { ListPool, listThreadCount, listThreadFile, summarizeAll } from "./list-pool";
import type { ListingCounts, ListingMemory } from "./remembered";

/** The longest stretch the listing keeps the event loop busy with sync reads. */
const SLICE_MS = 8;

/** One batch of the chat list. The first batch carries the folder-level problems. */
export interface ChatBatch {
  chats: ChatSummary[];
  /** Folder-level problems: names that do not decode, chats stored twice. */
  problems: Problem[];
  /** Chats read so far, and in all (with `asWalked`, found so far until `walked`). */
  done: number;
  total: number;
  /** False while the log folder is still walked (`asWalked`): `total` is then the chats found so far. */
  walked: boolean;
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
  /**
   * Reads the first chats while the log folder is still walked (the Doctor page): the walk gives the event
   * loop a turn every few milliseconds, and batches come before it ends, their `walked` false (`walkInTurns`).
   * Problems come as they are found, chats stored twice when the walk ends. List threads only as a number.
   */
  asWalked?: boolean;
  /** Tests: with `asWalked`, awaited after each group folder walked in place of the walk's turns. */
  walkTurn?: () => Promise<void>;
}

/**
 * Lists every chat of a log folder in batches, so the first chats show before
 * the listing ends. Names are read first (to find chats stored twice), then
 * each chat's details: from its checkpoint when it holds, else from its log.
 * With `asWalked` the first chats are read while later names are still read.
 */
export async function* listChats(logDir: string, options: ListChatsOptions = {}): AsyncGenerator<ChatBatch> {
  const feed: ChatFeed = options.asWalked
    ? walkInTurns(logDir, { turn: options.walkTurn })
    : scannedFeed(scanLogFolder(logDir));
  const size = options.batchSize ?? 200;
  let done = 0;
  const counts: ListingCounts = { memory: 0, verified: 0, rebuilt: 0 };
  if (feed.walked && !feed.total) {
    options.onProgress?.(0, 0);
    yield { chats: [], problems: feed.problems(), done: 0, total: 0, walked: true, counts };
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
  const threads = !file ? 0 : options.threads === true ? listThreadCount(feed.total) : Number(options.threads);
  const pool = file && threads ? new ListPool(file, threads, summarize) : null;
  try {
    // Two batches per thread in flight keep every thread busy while the caller writes (and, on this thread,
    // while one batch waits for its first frames' native decode, the next one reads its files); no more, so
    // 100,000 chats never wait in memory for a slow reader.
    const ahead = 2 * Math.max(1, threads);
    const pending: Promise<ChatSummary[]>[] = [];
    const refill = () => {
      while (pending.length < ahead) {
        // Locations are made a batch at a time: the walk keeps only names.
        const batch = feed.take(size);
        if (!batch.length) return;
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
    // The last batch says the walk has ended (its total is then the whole), with any problems found after it.
    let told = false;
    for (;;) {
      refill();
      if (!pending.length) {
        if (feed.walked) break;
        await feed.more();
        continue;
      }
      const chats = await (pending.shift() as Promise<ChatSummary[]>);
      refill();
      done += chats.length;
      if (!memory) for (const chat of chats) count(chat, counts);
      const { total, walked } = feed;
      options.onProgress?.(done, total);
      told = walked;
      yield { chats, problems: feed.problems(), done, total, walked, counts: { ...counts } };
    }
    const problems = feed.problems();
    if (!told || problems.length) {
      options.onProgress?.(done, feed.total);
      yield { chats: [], problems, done, total: feed.total, walked: true, counts: { ...counts } };
    }
  } finally {
    feed.stop();
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
