import "server-only";
import { createHash } from "node:crypto";
import type { ChatRow } from "@/lib/chats/views";

/**
 * The rows the chat list sent from the index, as the folder check compares them: each row's id and a digest
 * of its JSON (27 characters), not the JSON itself. At 100,000 chats the copies were about 54 MB of strings
 * held by the server for as long as the check ran (seconds to minutes).
 */
export class SentRows {
  private readonly digests = new Map<string, string>();

  /** A row as sent. */
  add(row: ChatRow): void {
    this.digests.set(row.id, digest(row));
  }

  /** True when `row` is not the one sent under its id (or none was). */
  differs(row: ChatRow): boolean {
    return this.digests.get(row.id) !== digest(row);
  }

  /** The ids sent, in the order they were. */
  ids(): IterableIterator<string> {
    return this.digests.keys();
  }

  /** The characters held: each id and its digest (what this class keeps instead of every row's JSON). */
  heldChars(): number {
    let n = 0;
    for (const [id, d] of this.digests) n += id.length + d.length;
    return n;
  }
}

function digest(row: ChatRow): string {
  return createHash("sha1").update(JSON.stringify(row)).digest("base64").slice(0, 27);
}
