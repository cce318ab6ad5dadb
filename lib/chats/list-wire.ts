import type { ChatListBatch, ChatProblem, ChatRow } from "./views";

/**
 * The chat list on the wire (`/api/chats`): each row as an array in the order of {@link WIRE_COLUMNS}, not an
 * object that repeats its keys, and the strings rows share (working folders, groups, the lock's and the
 * checkpoint's sentences) sent once a stream and named by their place after that. At 100,000 chats the
 * objects were 54 MB of NDJSON, about 540 bytes a row, and the page parsed every byte; pure, so the server
 * encodes and the page decodes with the same table.
 */

/** A row's values, in the order of {@link WIRE_COLUMNS}. */
export type WireRow = unknown[];

/** A batch as sent: its rows as arrays, and the strings first named in it (appended to the stream's table). */
export interface WireBatch extends Omit<ChatListBatch, "rows"> {
  rows: WireRow[];
  /** The stream's table of shared strings grows by these, in order (absent when none is new). */
  strings?: string[];
  /** First batch: the columns of every row's array, so a reader can check it reads the same ones. */
  columns?: readonly string[];
}

/** The columns of a row's array, in order; `@` marks a string sent once and then named by its place. */
export const WIRE_COLUMNS = [
  "id",
  "title",
  "folder",
  "group@",
  "cwd@",
  "created",
  "firstActivity",
  "lastActivity",
  "messages",
  "tokens",
  "format",
  "compressed",
  "generations",
  "lock.state@",
  "lock.reason@",
  "lock.more",
  "cached",
  "cacheState@",
  "cacheReason@",
  "behindBytes",
  "problems",
  "notes",
] as const;

/** A moment as its milliseconds when that gives the same text back (`toISOString`), else the text itself. */
function moment(iso: string | null): string | number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso ? ms : iso;
}

function fromMoment(v: unknown): string | null {
  return typeof v === "number" ? new Date(v).toISOString() : (v as string | null);
}

/** The stream's encoder: one a response, since its table of strings is the stream's. */
export function wireEncoder(): (batch: ChatListBatch) => WireBatch {
  const table = new Map<string, number>();
  let first = true;
  return (batch) => {
    const fresh: string[] = [];
    const ref = (s: string | null) => {
      if (s === null) return null;
      let at = table.get(s);
      if (at === undefined) {
        at = table.size;
        table.set(s, at);
        fresh.push(s);
      }
      return at;
    };
    const rows = batch.rows.map((r): WireRow => {
      const { state, reason, ...rest } = r.lock;
      // The pid, host and start of a lock file, when it has them (a row made by `toRow` names them undefined).
      const more = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      return [
        r.id,
        r.title,
        r.folder,
        ref(r.group),
        ref(r.cwd),
        moment(r.created),
        moment(r.firstActivity),
        moment(r.lastActivity),
        r.messages,
        r.tokens,
        r.format,
        r.compressed,
        r.generations,
        ref(state),
        ref(reason),
        Object.keys(more).length ? more : 0,
        r.cached ? 1 : 0,
        ref(r.cacheState),
        ref(r.cacheReason),
        r.behindBytes,
        r.problems.length ? r.problems : 0,
        r.notes ?? 0,
      ];
    });
    const out: WireBatch = { ...batch, rows, ...(fresh.length ? { strings: fresh } : {}) };
    if (first) out.columns = WIRE_COLUMNS;
    first = false;
    return out;
  };
}

/** The page's decoder, one a stream: each batch back as the server made it. */
export function wireDecoder(): (batch: WireBatch) => ChatListBatch {
  const table: string[] = [];
  return ({ strings, columns, ...batch }) => {
    if (columns && columns.join() !== WIRE_COLUMNS.join())
      throw new Error("The chat list came in columns this page does not read; reload the page.");
    if (strings) table.push(...strings);
    const str = (v: unknown) => (v === null ? null : (table[v as number] as string));
    const rows = batch.rows.map((a): ChatRow => {
      const more = a[15] === 0 ? {} : (a[15] as Omit<ChatRow["lock"], "state" | "reason">);
      const notes = a[21] as number;
      return {
        id: a[0] as string,
        title: a[1] as string | null,
        folder: a[2] as string,
        group: str(a[3]) as string,
        cwd: str(a[4]),
        created: fromMoment(a[5]),
        firstActivity: fromMoment(a[6]),
        lastActivity: fromMoment(a[7]),
        messages: a[8] as number,
        tokens: a[9] as number,
        format: a[10] as number | null,
        compressed: a[11] as boolean | null,
        generations: a[12] as string[],
        lock: { state: str(a[13]) as ChatRow["lock"]["state"], ...more, reason: str(a[14]) as string },
        cached: a[16] === 1,
        cacheState: str(a[17]) as ChatRow["cacheState"],
        cacheReason: str(a[18]) as string,
        behindBytes: a[19] as number,
        problems: a[20] === 0 ? [] : (a[20] as ChatProblem[]),
        ...(notes ? { notes } : {}),
      };
    });
    return { ...batch, rows };
  };
}
