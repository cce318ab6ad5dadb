import { type WireBatch, wireDecoder } from "@/lib/chats/list-wire";
import type { ErrorBody } from "@/lib/errors";
import type { ChatListBatch } from "@/lib/types";

/** Reading `/api/chats` (NDJSON, rows in the wire form of `lib/chats/list-wire.ts`) into batches for the page. */

export type Chunk = ChatListBatch | { error: ErrorBody };

/** How long batches may gather before the page shows them: one render per batch was 500 renders at 100,000 chats. */
const SHOW_EVERY_MS = 120;

/**
 * Rows gathered are shown once they are at least a third of the rows shown already. Each render of the list
 * walks every row it holds (filters, groups, the places of rows still to come), so showing every 120 ms at
 * 100,000 chats walked them 50 to 200 times; growing by a third walks them about 15 times.
 */
const GROWTH = 3;

/**
 * Plain batches that arrived together, as one (an update, an error, a verdict, the end of the index's rows and
 * the start or end of a paged listing stay apart).
 */
function merge(chunks: Chunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (const chunk of chunks) {
    const last = out.at(-1);
    if (
      last &&
      !("error" in last) &&
      !last.update &&
      !("paged" in last) &&
      !("error" in chunk) &&
      !chunk.update &&
      !chunk.index &&
      !("paged" in chunk)
    ) {
      out[out.length - 1] = {
        ...last,
        rows: last.rows.concat(chunk.rows),
        problems: last.problems.concat(chunk.problems),
        done: chunk.done,
        total: chunk.total,
      };
    } else out.push(chunk);
  }
  return out;
}

export const FLUSH = Symbol("flush");

/** The batches gathered and not yet shown, and whether they are worth a render. */
export class Gathered {
  private pending: Chunk[] = [];
  private rows = 0;
  private other = false;
  private shownRows = 0;

  add(chunk: Chunk): void {
    this.pending.push(chunk);
    // An error, an update, the index's verdict and the last of the rows are shown at the next tick: after
    // the last row the stream may wait for the folder check (seconds at 100,000 chats).
    if ("error" in chunk || chunk.update || chunk.index || "paged" in chunk || chunk.done >= chunk.total)
      this.other = true;
    if (!("error" in chunk)) this.rows += chunk.rows.length;
  }

  /** True when what is gathered is worth a render: rows a third of those shown, the last rows, or anything else. */
  due(): boolean {
    return this.other || (this.rows > 0 && this.rows * GROWTH >= this.shownRows);
  }

  /** What is gathered, merged, and gathering starts again. */
  take(): Chunk[] {
    const out = merge(this.pending);
    this.shownRows += this.rows;
    this.pending = [];
    this.rows = 0;
    this.other = false;
    return out;
  }
}

/**
 * The page's batches from the stream's lines and its `FLUSH` ticks: the first batch at once (the first
 * paint), then what gathered at a tick when it is {@link Gathered.due}, and the rest at the end.
 */
export async function* gatherBatches(
  lines: AsyncIterable<Chunk | typeof FLUSH>,
  gathered = new Gathered(),
): AsyncGenerator<Chunk> {
  let first = true;
  for await (const chunk of lines) {
    if (chunk === FLUSH) {
      if (gathered.due()) yield* gathered.take();
    } else {
      gathered.add(chunk);
      if (first) yield* gathered.take();
      first = false;
    }
  }
  yield* gathered.take();
}

/**
 * Reads `/api/chats` as the server lists the folder. Lines that arrive within `SHOW_EVERY_MS` of each other
 * go to the page as one batch, and no sooner than they are worth a render; a pause in the stream shows them.
 */
export function readListStream(signal: AbortSignal, url: string): AsyncGenerator<Chunk> {
  const gathered = new Gathered();
  return gatherBatches(
    readListLines(signal, url, (wait) => (gathered.due() ? wait : null)),
    gathered,
  );
}

/** The stream's lines, and `FLUSH` every `SHOW_EVERY_MS` (and when the stream pauses with lines due). */
async function* readListLines(
  signal: AbortSignal,
  url: string,
  gathering: (wait: number) => number | null,
): AsyncGenerator<Chunk | typeof FLUSH> {
  const response = await fetch(url, { signal, cache: "no-store" });
  if (!response.ok || !response.body) {
    const message = (await response.text()).trim() || `The chat list could not be read (${response.status}).`;
    yield { error: { code: "unexpected", message } };
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const decode = wireDecoder();
  let buffered = "";
  let shown = performance.now();
  for (;;) {
    const read = reader.read();
    let next = await Promise.race([read, pause(gathering(SHOW_EVERY_MS))]);
    if (next === PAUSED) {
      yield FLUSH;
      shown = performance.now();
      next = await read;
    }
    const { value, done } = next;
    if (done) break;
    if (performance.now() - shown >= SHOW_EVERY_MS) {
      yield FLUSH;
      shown = performance.now();
    }
    buffered += value;
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
      if (!line.trim()) continue;
      const chunk = JSON.parse(line) as WireBatch | { error: ErrorBody };
      if ("error" in chunk) yield chunk;
      else {
        // A page older than the server (columns it does not read) says so where the list's errors go.
        let batch: ChatListBatch;
        try {
          batch = decode(chunk);
        } catch (error) {
          yield { error: { code: "unexpected", message: (error as Error).message } };
          return;
        }
        yield batch;
      }
    }
  }
}

const PAUSED = Symbol("paused");

/** Resolves with `PAUSED` after `ms` (never when `ms` is null: nothing is waiting to be shown). */
function pause(ms: number | null): Promise<typeof PAUSED> {
  return ms === null ? new Promise(() => {}) : new Promise((resolve) => setTimeout(() => resolve(PAUSED), ms));
}
