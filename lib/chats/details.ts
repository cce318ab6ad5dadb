import { OdaError } from "../errors";
import { type LongLine, reportTail, type TailReport } from "./line-index";
import { LineSplitter, parseObject } from "./lines";
import { type LogEnd, type OpenLog, streamLog } from "./log-stream";

/** A format 4 log's first line. */
export interface SessionHeader {
  type: "session";
  format: number;
  id: string;
  created: string;
  cwd: string | null;
  continues: string | null;
}

/** A chat's identity (`docs/file-contract.md`, The chat list's checkpoint). */
export interface ChatIdentity {
  id: string;
  created: string | null;
  cwd: string | null;
  continues: string | null;
}

/** The details the chat list shows, rebuilt from a log or served from a checkpoint. */
export interface ChatDetails {
  /** The last `title` event, else the first user message's first 80 characters. */
  title: string | null;
  firstActivity: string | null;
  lastActivity: string | null;
  /** Message lines (format 4 `message` events, format 1 lines with a role). */
  messages: number;
  /** Models in the order they first appear. */
  models: string[];
  inputTokens: number;
  outputTokens: number;
}

/** Reads a line as a format 4 header, or `null`. */
export function asHeader(json: Record<string, unknown> | null): SessionHeader | null {
  if (json?.type !== "session" || typeof json.id !== "string") return null;
  return {
    type: "session",
    format: typeof json.format === "number" ? json.format : 4,
    id: json.id,
    created: typeof json.created === "string" ? json.created : "",
    cwd: typeof json.cwd === "string" ? json.cwd : null,
    continues: typeof json.continues === "string" ? json.continues : null,
  };
}

function firstText(json: Record<string, unknown>): string | null {
  if (typeof json.text === "string") return json.text;
  if (typeof json.content === "string") return json.content;
  if (Array.isArray(json.content)) {
    for (const part of json.content) {
      if (part && typeof part === "object" && (part as { type?: unknown }).type === "text") {
        const text = (part as { text?: unknown }).text;
        if (typeof text === "string") return text;
      }
    }
  }
  return null;
}

/** Accumulates chat details line by line; the writer and the reader share it so both agree. */
export class DetailsBuilder {
  header: SessionHeader | null = null;
  firstLine: Record<string, unknown> | null = null;
  private title: string | null = null;
  private fallbackTitle: string | null = null;
  private first: string | null = null;
  private last: string | null = null;
  private messages = 0;
  private models: string[] = [];
  private inputTokens = 0;
  private outputTokens = 0;

  /** Adds one parsed line. */
  add(json: Record<string, unknown>): void {
    if (!this.firstLine) {
      this.firstLine = json;
      this.header = asHeader(json);
      if (this.header) return;
    }
    const ts = typeof json.ts === "string" ? json.ts : typeof json.time === "string" ? json.time : null;
    if (ts) {
      this.first ??= ts;
      this.last = ts;
    }
    if (json.type === "title" && typeof json.title === "string") this.title = json.title;
    const isMessage = json.type === "message" || (json.type === undefined && typeof json.role === "string");
    if (!isMessage) return;
    this.messages++;
    if (typeof json.model === "string" && !this.models.includes(json.model)) this.models.push(json.model);
    const usage = json.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
    if (usage && typeof usage === "object") {
      if (typeof usage.input_tokens === "number") this.inputTokens += usage.input_tokens;
      if (typeof usage.output_tokens === "number") this.outputTokens += usage.output_tokens;
    }
    if (this.fallbackTitle === null && json.role === "user") {
      const text = firstText(json);
      if (text) this.fallbackTitle = text.replace(/\s+/g, " ").trim().slice(0, 80) || null;
    }
  }

  /** The identity the log gives (format 1: created is the first line's time). */
  identity(id: string, cwd: string | null): ChatIdentity {
    if (this.header)
      return {
        id: this.header.id,
        created: this.header.created,
        cwd: this.header.cwd,
        continues: this.header.continues,
      };
    return { id, created: this.first, cwd, continues: null };
  }

  result(): ChatDetails {
    return {
      title: this.title ?? this.fallbackTitle,
      firstActivity: this.first ?? this.header?.created ?? null,
      lastActivity: this.last ?? this.header?.created ?? null,
      messages: this.messages,
      models: [...this.models],
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
    };
  }
}

/** What `rebuildDetails` finds by reading a whole log. */
export interface RebuiltLog {
  builder: DetailsBuilder;
  details: ChatDetails;
  lines: number;
  /** Complete lines that are not JSON objects (the first 100). */
  badLines: number[];
  /** Lines over the line limit (the first 100). */
  longLines: LongLine[];
  tail: TailReport | null;
  /** Set when decoding stopped early: the refusal sentence. */
  error: string | null;
}

/**
 * A log's details rebuilt line by line as a reader goes: `rebuildDetails`
 * reads for it alone, and the index's reader feeds it the lines it parses
 * anyway, so a log is decoded once for both.
 */
export class DetailsRebuild {
  readonly builder = new DetailsBuilder();
  private badLines: number[] = [];
  private longLines: LongLine[] = [];

  /** One line: `json` is the line parsed (null: not a JSON object); a line over the limit (`length` past its bytes) is not parsed. */
  add(n: number, offset: number, bytes: Buffer, length: number, json: Record<string, unknown> | null): void {
    if (length > bytes.length) {
      if (this.longLines.length < 100) this.longLines.push({ n, offset, length });
    } else if (json) this.builder.add(json);
    else if (this.badLines.length < 100) this.badLines.push(n);
  }

  /** The result once the stream ended (`end`: its end, null when decoding stopped early with `error`). */
  result(path: string, splitter: LineSplitter, end: LogEnd | null, error: string | null): RebuiltLog {
    return {
      builder: this.builder,
      details: this.builder.result(),
      lines: splitter.lines,
      badLines: this.badLines,
      longLines: this.longLines,
      tail: end ? reportTail(path, splitter, end) : null,
      error,
    };
  }
}

/** Reads a whole log as a stream (bounded memory) and rebuilds its details. */
export async function rebuildDetails(
  path: string,
  compressed: boolean,
  options: { batchOutput?: number; open?: OpenLog } = {},
): Promise<RebuiltLog> {
  const rebuild = new DetailsRebuild();
  const splitter = new LineSplitter();
  let end: LogEnd | null = null;
  let error: string | null = null;
  const onLine = (n: number, offset: number, bytes: Buffer, length: number) => {
    rebuild.add(n, offset, bytes, length, length > bytes.length ? null : parseObject(bytes.toString("utf8")));
    return true;
  };
  try {
    for await (const item of streamLog(path, { compressed, batchOutput: options.batchOutput, open: options.open })) {
      if (item.type === "end") end = item;
      else splitter.push(item.data, onLine);
    }
  } catch (e) {
    if (!(e instanceof OdaError)) throw e;
    error = e.message;
  }
  return rebuild.result(path, splitter, end, error);
}

/** The first complete line of a log as an object (`null`: none, or not an object). */
export async function readFirstLine(
  path: string,
  compressed: boolean,
  open?: OpenLog,
): Promise<Record<string, unknown> | null> {
  const splitter = new LineSplitter();
  let first: Record<string, unknown> | null = null;
  try {
    for await (const item of streamLog(path, { compressed, open })) {
      if (item.type === "end") break;
      const more = splitter.push(item.data, (_n, _o, bytes, length) => {
        first = length > bytes.length ? null : parseObject(bytes.toString("utf8"));
        return false;
      });
      if (!more) break;
    }
  } catch (e) {
    if (!(e instanceof OdaError)) throw e;
  }
  return first;
}
