import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { compress as compressNative } from "@mongodb-js/zstd";
import { type Checkpoint, checkpointDetails, hashLogTail } from "../../../lib/chats/checkpoint";
import { DetailsBuilder } from "../../../lib/chats/details";
import { CACHE_FILE, encodeName, groupName, LOCK_FILE, logFileName } from "../../../lib/chats/names";
import { OdaError } from "../../../lib/errors";
import { createLockFile, describeThisProcess, type LockHolder, readLockStatus } from "../../../lib/fs/lock";

/**
 * An Oda-compatible writer for demo data and tests: one writer per chat
 * (`session.lock`, created exclusively), whole lines per save (in the
 * compressed form, one or more complete zstd frames per save), checkpoints
 * when the chat is created, at the end of each turn, every few saves and when
 * it closes. As the seed says, files appear on the first save: creating a chat
 * writes nothing until it has content.
 */

/** Options for `createChat` and `openChat`. */
export interface WriterOptions {
  /** The log folder's form (default true: zstd). */
  compress?: boolean;
  /** 4 (header and events) or 1 (`{time, role, text}` lines). Default 4. */
  format?: number;
  /** zstd level (default 3). */
  level?: number;
  /** Split each save into this many frames (default 1). */
  framesPerSave?: number;
  /** Write a checkpoint every N saves as well (default 0: only at the seed's moments). */
  checkpointEvery?: number;
  /** fsync the log after each save (default false: demo data and tests need no durability). */
  durable?: boolean;
  /** Replace a provably stale lock (the seed: a crash leaves no stuck lock). Default true. */
  replaceStaleLock?: boolean;
}

/** A new chat's identity. */
export interface NewChat {
  id: string;
  cwd: string | null;
  /** ISO time (default now). */
  created?: string;
  continues?: string | null;
}

/** One turn: a user message and the answer, then `turn_end`. */
export interface Turn {
  user: string;
  assistant: string;
  model?: string;
  usage?: { input_tokens: number; output_tokens: number };
  /** ISO time of the user message (default now); the answer and turn end follow it. */
  ts?: string;
}

/** A write handle on one chat. */
export class ChatWriter {
  readonly dir: string;
  readonly logPath: string;
  readonly format: number;
  readonly compressed: boolean;
  private readonly builder: DetailsBuilder;
  private holder: LockHolder | null = null;
  private saves = 0;
  private closed = false;

  constructor(
    logDir: string,
    readonly identity: Required<NewChat>,
    readonly options: WriterOptions,
    /** The details so far, when reopening an existing log. */
    builder?: DetailsBuilder,
  ) {
    this.builder = builder ?? new DetailsBuilder();
    this.dir = join(logDir, groupName(identity.cwd), encodeName(identity.id));
    this.format = options.format ?? 4;
    this.compressed = options.compress ?? true;
    this.logPath = join(this.dir, logFileName(this.format, this.compressed));
  }

  /** Takes the chat's lock, refusing a second writer with the seed's sentence. */
  acquireLock(): void {
    if (this.holder) return;
    const path = join(this.dir, LOCK_FILE);
    const holder = describeThisProcess();
    if (createLockFile(path, holder)) {
      this.holder = holder;
      return;
    }
    const status = readLockStatus(path);
    if (status.state === "stale" && this.options.replaceStaleLock !== false) {
      unlinkSync(path);
      if (createLockFile(path, holder)) {
        this.holder = holder;
        return;
      }
    }
    throw new OdaError("locked", `session "${this.identity.id}" is already owned by an active write handle`);
  }

  /** Encodes lines as one save: plain text, or `framesPerSave` complete zstd frames. */
  async encodeSave(lines: string[]): Promise<Buffer> {
    const text = lines.map((l) => `${l}\n`);
    if (!this.compressed) return Buffer.from(text.join(""));
    const parts = Math.max(1, Math.min(this.options.framesPerSave ?? 1, text.length));
    const frames: Buffer[] = [];
    const per = Math.ceil(text.length / parts);
    for (let i = 0; i < text.length; i += per) {
      frames.push(await compressNative(Buffer.from(text.slice(i, i + per).join("")), this.options.level ?? 3));
    }
    return Buffer.concat(frames);
  }

  /** The header line for a new format 4 log. */
  headerLine(): string {
    const { id, created, cwd, continues } = this.identity;
    return JSON.stringify({ type: "session", format: this.format, id, created, cwd, continues });
  }

  /** Appends events (format 4) or lines (format 1) as one save; the first save creates the files. */
  async appendEvents(events: Record<string, unknown>[]): Promise<void> {
    if (this.closed) throw new OdaError("refused", `The write handle of chat "${this.identity.id}" is closed.`);
    const first = !existsSync(this.logPath);
    const lines = events.map((e) => JSON.stringify(e));
    if (first && this.format >= 4) lines.unshift(this.headerLine());
    await this.writeSave(await this.encodeSave(lines), lines);
    if (first || (this.options.checkpointEvery && this.saves % this.options.checkpointEvery === 0))
      this.writeCheckpoint();
  }

  /** Writes bytes of a save to the log (also used by the crash helpers with a cut save). */
  async writeSave(bytes: Buffer, lines: string[] | null): Promise<void> {
    if (!existsSync(this.dir)) mkdirSync(this.dir, { recursive: true });
    this.acquireLock();
    appendFileSync(this.logPath, bytes);
    if (this.options.durable) {
      const fd = openSync(this.logPath, "r+");
      fsyncSync(fd);
      closeSync(fd);
    }
    for (const line of lines ?? []) this.builder.add(JSON.parse(line));
    this.saves++;
  }

  /** Appends one turn (user message, answer, `turn_end`) as one save, then a checkpoint. */
  async appendTurn(turn: Turn): Promise<void> {
    const t0 = turn.ts ? Date.parse(turn.ts) : Date.now();
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    if (this.format < 4) {
      await this.appendEvents([
        { time: at(0), role: "user", text: turn.user },
        { time: at(1000), role: "assistant", text: turn.assistant },
      ]);
    } else {
      await this.appendEvents([
        { type: "message", ts: at(0), role: "user", content: [{ type: "text", text: turn.user }] },
        {
          type: "message",
          ts: at(1000),
          role: "assistant",
          content: [{ type: "text", text: turn.assistant }],
          model: turn.model ?? "oda-large-2026-10",
          usage: turn.usage ?? {
            input_tokens: Math.ceil(turn.user.length / 4),
            output_tokens: Math.ceil(turn.assistant.length / 4),
          },
        },
        { type: "turn_end", ts: at(1001) },
      ]);
    }
    this.writeCheckpoint();
  }

  /** The checkpoint for the log as it is now. */
  makeCheckpoint(): Checkpoint {
    const bytes = statSync(this.logPath).size;
    const details = this.builder.result();
    const identity = this.builder.identity(this.identity.id, this.identity.cwd);
    return {
      cacheFormat: 1,
      identity: {
        id: this.identity.id,
        created: identity.created,
        cwd: this.identity.cwd,
        continues: identity.continues,
      },
      log: { name: logFileName(this.format, this.compressed), bytes, tailSha256: hashLogTail(this.logPath, bytes) },
      checkpointAt: new Date().toISOString(),
      details: checkpointDetails(details),
    };
  }

  /** Writes `session.cache.json` atomically (temporary file, rename). Nothing before the first save. */
  writeCheckpoint(): void {
    if (!existsSync(this.logPath)) return;
    const path = join(this.dir, CACHE_FILE);
    const temp = `${path}.tmp-${process.pid}`;
    writeFileSync(temp, `${JSON.stringify(this.makeCheckpoint(), null, 2)}\n`);
    renameSync(temp, path);
  }

  /** Closes the chat: a last checkpoint, then the lock is released. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.writeCheckpoint();
    this.releaseLock();
    this.closed = true;
  }

  /** Removes the lock if this handle holds it. */
  releaseLock(): void {
    if (!this.holder) return;
    const path = join(this.dir, LOCK_FILE);
    const status = readLockStatus(path);
    if (status.pid === this.holder.pid && status.startedAt === this.holder.startedAt) unlinkSync(path);
    this.holder = null;
  }

  /** Drops the handle as a crash would: no checkpoint, the lock file stays. */
  abandon(): void {
    this.closed = true;
  }
}
