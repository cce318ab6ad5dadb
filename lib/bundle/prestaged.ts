import { basename } from "node:path";
import type { ChatDetails } from "../chats/details";
import { parseLogName } from "../chats/names";
import type { PlannedChats } from "./plan";
import type { Prestaged, RewrittenLog } from "./stage";

/** A log's generation as one number: its format and whether it is compressed. */
const nameKey = (name: { format: number; compressed: boolean }) => name.format * 2 + (name.compressed ? 1 : 0);

/**
 * The logs a bundle redacted while the doctor read them (`stageLogEarly`), each kept until `stageFiles` comes
 * to it: one string per planned chat (its range of the spool, its size and the details its checkpoint needs,
 * as JSON), not a `Map` of objects keyed by their 100-byte paths. The doctor reads every chat before staging
 * starts, so at 100,000 chats these are held all at once. Each chat's current log is the only one the doctor
 * reads; a chat's slot holds it with its format (the log staged later must be that same generation).
 */

export class PrestagedLogs implements Prestaged {
  /** `undefined`: not staged early; `null`: staged, came out unchanged; else the packed log. */
  private readonly packed: (string | null | undefined)[];
  private readonly format: Uint32Array;

  constructor(private readonly chats: PlannedChats) {
    this.packed = new Array(chats.size).fill(undefined);
    this.format = new Uint32Array(chats.size);
  }

  private at(source: string): number {
    const i = this.chats.chatOf(source);
    if (i < 0 || this.packed[i] === undefined) return -1;
    const name = parseLogName(basename(source));
    return name && nameKey(name) === this.format[i] ? i : -1;
  }

  has(source: string): boolean {
    return this.at(source) >= 0;
  }

  get(source: string): RewrittenLog | null | undefined {
    const i = this.at(source);
    if (i < 0) return undefined;
    const packed = this.packed[i];
    if (packed === null || packed === undefined) return packed;
    const [start, size, sha256, tailSha256, originalSize, details] = JSON.parse(packed) as [
      number,
      number,
      string,
      string,
      number,
      ChatDetails,
    ];
    return { range: { start, size, sha256, tailSha256 }, details, source, size: originalSize };
  }

  set(source: string, log: RewrittenLog | null): void {
    const i = this.chats.chatOf(source);
    const name = parseLogName(basename(source));
    // Not one of the planned chats' logs (never so: the doctor reads only those): not kept, so staged as usual.
    if (i < 0 || !name) return;
    const r = log?.range;
    this.packed[i] = r ? JSON.stringify([r.start, r.size, r.sha256, r.tailSha256, log.size, log.details]) : null;
    this.format[i] = nameKey(name);
  }

  delete(source: string): void {
    const i = this.at(source);
    if (i >= 0) this.packed[i] = undefined;
  }

  clear(): void {
    this.packed.fill(undefined);
  }
}
