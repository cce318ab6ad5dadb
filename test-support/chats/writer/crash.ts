import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { LOCK_FILE } from "../../../lib/chats/names";
import type { LockHolder } from "../../../lib/fs/lock";
import type { ChatWriter } from "./chat-writer";

/**
 * Crash simulations for tests and demo data: a save cut off in the middle,
 * and a lock left behind by a process that is gone. The handle is abandoned
 * afterwards, as a crash would leave it.
 */

/** Appends a save whose last zstd frame (or last line, in the plain form) is cut after `keep` of its bytes. */
export async function appendCutSave(
  writer: ChatWriter,
  events: Record<string, unknown>[],
  keep: number | ((length: number) => number),
): Promise<{ cutAt: number; length: number }> {
  const lines = events.map((e) => JSON.stringify(e));
  const bytes = await writer.encodeSave(lines);
  const n = typeof keep === "function" ? keep(bytes.length) : keep;
  const cut = Math.max(0, Math.min(n, bytes.length - 1));
  await writer.writeSave(bytes.subarray(0, cut), null);
  writer.abandon();
  return { cutAt: cut, length: bytes.length };
}

/** Appends an unfinished last line (no `\n`): the first `keep` bytes of the event's JSON. Plain logs only. */
export async function appendUnfinishedLine(
  writer: ChatWriter,
  event: Record<string, unknown>,
  keep?: number,
): Promise<void> {
  if (writer.compressed) throw new Error("appendUnfinishedLine is for plain logs; use appendCutSave for zstd");
  const text = JSON.stringify(event);
  await writer.writeSave(Buffer.from(text.slice(0, keep ?? Math.floor(text.length / 2))), null);
  writer.abandon();
}

/** Runs a short-lived child and returns its pid and start time once it is gone: a real dead process. */
export function makeDeadHolder(): LockHolder {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return { pid: Number(child.stdout), host: hostname(), startedAt: new Date().toISOString() };
}

/** Replaces a chat folder's lock with one left by a dead process (the crash leaves its lock behind). */
export function leaveDeadLock(chatDir: string, holder: LockHolder = makeDeadHolder()): LockHolder {
  writeFileSync(join(chatDir, LOCK_FILE), `${JSON.stringify(holder)}\n`);
  return holder;
}

/**
 * Writes `content` as a valid zstd log of tiny frames: each `frameBytes` (1-255) bytes in a single-segment
 * frame of one raw block, 9 bytes of headers each (issue 24: a 2 MB line in 2-byte frames is a million
 * frames). What a writer that flushes after every few bytes would leave.
 */
export function writeTinyFrameLog(path: string, content: Buffer, frameBytes = 2): number {
  const frames = Math.ceil(content.length / frameBytes);
  const out = Buffer.alloc(content.length + frames * 9);
  let o = 0;
  for (let i = 0; i < content.length; i += frameBytes) {
    const n = Math.min(frameBytes, content.length - i);
    out.writeUInt32LE(0xfd2fb528, o);
    out[o + 4] = 0x20; // single segment, one-byte content size, no checksum
    out[o + 5] = n;
    out.writeUIntLE(1 | (n << 3), o + 6, 3); // last block, raw, n bytes
    content.copy(out, o + 9, i, i + n);
    o += 9 + n;
  }
  writeFileSync(path, out.subarray(0, o));
  return frames;
}
