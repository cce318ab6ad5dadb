import { type Db, ENTRY_SPAN } from "./db";
import { type BatchMessage, problemCount, type ReadMessage, type SummaryMessage } from "./read-messages";
import type { IndexedChat } from "./scan";
import { chatStatements } from "./statements";
import { deleteEntries, writeBlocks, writeSeeks } from "./texts";
import { deleteUsage, writeUsage } from "./usage";

/**
 * Writing one chat's re-read into the index: the messages a reader thread
 * made of it (`chat-read.ts`), applied in order inside the refresh's
 * transaction. A batch has no savepoint of its own (one per chat cost a third
 * of the FTS inserts): a failed write rolls the refresh's transaction back
 * instead. Only SQLite work is done here: this is the refresh's bottleneck thread.
 */

/** What a chat's re-read did. */
export interface ChatRefresh {
  mode: "append" | "full" | "summary";
  lines: number;
  /** Entries written. */
  entries: number;
  /** UTF-8 bytes of their text. */
  textBytes: number;
}

/** Thrown inside a chat's first write when another process indexed the chat meanwhile. */
export class ChatMovedOn extends Error {}

/** Applies one chat's messages to the index as they come. */
export class ChatWrite {
  readonly done: ChatRefresh = { mode: "summary", lines: 0, entries: 0, textBytes: 0 };
  private first = true;

  constructor(
    private db: Db,
    private row: IndexedChat | null,
  ) {}

  /** Applies one message; throws `ChatMovedOn` when another process indexed the chat since it was read. */
  apply(message: ReadMessage): void {
    if (message.kind === "summary") this.summary(message);
    else this.batch(message);
  }

  private summary(m: SummaryMessage): void {
    const row = this.row as IndexedChat;
    const stored = this.db.prepare("SELECT text_error, bad_lines FROM chats WHERE cid = ?").get(row.cid) as {
      text_error: string | null;
      bad_lines: number;
    };
    chatStatements(this.db).summaryOnly.run({
      ...m.fields,
      problems: problemCount(m.summaryProblems, m.tailUnknown, stored.text_error, stored.bad_lines),
      cid: row.cid,
    });
  }

  private batch(m: BatchMessage): void {
    const s = chatStatements(this.db);
    const resumed = m.mode === "append";
    if (this.first && resumed && this.row) {
      // Another process (the CLI beside the server) may have indexed this chat since it was read: leave it to it.
      if (s.indexedAt.get(this.row.cid) !== this.row.indexed_at) throw new ChatMovedOn();
    }
    const { cid } = s.upsert.get(m.fields) as { cid: number };
    const lo = cid * ENTRY_SPAN;
    const fresh = this.first && !resumed;
    if (fresh) {
      deleteEntries(this.db, cid);
      deleteUsage(this.db, cid);
    }
    this.first = false;
    this.done.mode = m.mode;
    this.done.lines += m.linesRead;
    const start = ((s.lastEntry.get(lo, lo + ENTRY_SPAN) as { id: number | null }).id ?? lo - 1) + 1;
    // A chat with more entries than its span keeps the first ones searchable (16 million entries).
    const end = lo + ENTRY_SPAN;
    const count = Math.min(m.texts.length, end - start);
    for (let i = 0; i < count; i++) {
      const text = m.texts[i] as string;
      s.insertLine.run({ id: start + i, line: m.lines[i], r: m.roles[i], t: m.ts[i] });
      s.insertFts.run(start + i, text);
      this.done.textBytes += Buffer.byteLength(text);
    }
    this.done.entries += count;
    writeBlocks(this.db, start, m.blocks, end);
    writeSeeks(this.db, cid, m.seeks);
    writeUsage(this.db, cid, m.usage, fresh);
  }
}
