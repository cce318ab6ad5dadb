import { basename } from "node:path";
import { parseLogName } from "../chats/names";
import type { PlannedChats } from "./plan";
import { type Prestaged, previewRewritten, type RewrittenLog, type StagedFile } from "./stage";

/**
 * What the Support page's preview holds (issue 26): counts, not entries. It redacts every file to count what
 * each kind replaces, as the bundle would, in the bundle's order (a value learned in one file is replaced in
 * the later ones), but keeps no file's entry once counted (a bundle must keep each file's hash for its
 * manifest): the logs the doctor's read redacted are flags per chat, and only the first
 * {@link PREVIEW_FILES} files are listed. At 100,000 chats the plan and the staged entries of
 * 200,000 files ran the bundle thread out of its heap.
 */

/** Files a preview lists by name (its counts cover every file). */
export const PREVIEW_FILES = 500;

const UNCHANGED = 1;
const REWRITTEN = 2;

/**
 * The logs redacted while the doctor read them, as one byte and one format per planned chat (a `Map` by
 * path held 100,000 paths): each chat's current log is the only one the doctor reads.
 */
export class PrestagedFlags implements Prestaged {
  private readonly state: Uint8Array;
  private readonly format: Uint32Array;

  constructor(
    private readonly chats: PlannedChats,
    private readonly compress: boolean,
  ) {
    this.state = new Uint8Array(chats.size);
    this.format = new Uint32Array(chats.size);
  }

  private at(source: string): number {
    const i = this.chats.chatOf(source);
    if (i < 0 || !this.state[i]) return -1;
    const name = parseLogName(basename(source));
    return name && name.format === this.format[i] && name.compressed === this.compress ? i : -1;
  }

  has(source: string): boolean {
    return this.at(source) >= 0;
  }

  get(source: string): RewrittenLog | null | undefined {
    const i = this.at(source);
    if (i < 0) return undefined;
    return this.state[i] === REWRITTEN ? previewRewritten({ source, size: 0 }) : null;
  }

  set(source: string, log: RewrittenLog | null): void {
    const i = this.chats.chatOf(source);
    if (i < 0) return;
    this.state[i] = log ? REWRITTEN : UNCHANGED;
    this.format[i] = parseLogName(basename(source))?.format ?? 0;
  }

  delete(source: string): void {
    const i = this.at(source);
    if (i >= 0) this.state[i] = 0;
  }

  clear(): void {
    this.state.fill(0);
  }
}

/** A preview's tally of the staged files: how many, their bytes, how many rewritten, the first ones listed. */
export class PreviewTally {
  files = 0;
  bytes = 0;
  redacted = 0;
  notes = 0;
  readonly listed: { path: string; size: number; sha256: string }[] = [];

  /** Counts one file (a report, or a staged file). */
  add = (f: StagedFile): void => {
    this.files++;
    this.bytes += f.size;
    if (f.redacted) this.redacted++;
    if (f.path.startsWith("notes/")) this.notes++;
    if (this.listed.length < PREVIEW_FILES) this.listed.push({ path: f.path, size: f.size, sha256: f.sha256 });
  };
}
