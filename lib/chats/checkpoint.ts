import { closeSync } from "node:fs";
import { openRegularSync, readFileStartSync } from "../fs/open-regular";
import { isSystemError, systemErrorSentence } from "../fs/system-error";
import type { Checkpoint } from "./checkpoint-type";
import type { ChatDetails, ChatIdentity } from "./details";
import { sha256Hex } from "./hash";
import { readRange } from "./zstd/file-window";

export type { Checkpoint };

/** A checkpoint's `details` from the details rebuilt from its log (the model is the last one used). */
export function checkpointDetails(details: ChatDetails): Checkpoint["details"] {
  return {
    title: details.title,
    messages: details.messages,
    lastActivity: details.lastActivity,
    model: details.models[details.models.length - 1] ?? null,
    inputTokens: details.inputTokens,
    outputTokens: details.outputTokens,
  };
}

/** How a checkpoint was judged against its log. */
export type CacheState = "cached" | "behind" | "discarded" | "unreadable" | "none";

/** The judgement, with the reason and how far the log is ahead of the checkpoint. */
export interface CacheVerdict {
  state: CacheState;
  reason: string;
  behindBytes: number;
}

/** A nullable string field (`z.string().nullable()`). */
const isTextOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isAmount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The checkpoint as `ZCheckpoint` would parse it (unknown keys dropped), or
 * `null` when it does not plainly fit. The chat list reads thousands of
 * checkpoints and this check costs a fraction of the schema's; anything it
 * does not accept goes through `ZCheckpoint`, which decides and names the problem.
 * It must accept everything the schema accepts (or the listing slows down) and
 * nothing else; exported for the test that checks both.
 */
export function acceptCheckpoint(value: unknown): Checkpoint | null {
  if (!isRecord(value) || value.cacheFormat !== 1 || typeof value.checkpointAt !== "string") return null;
  const { identity: i, log: l, details: d } = value;
  if (!isRecord(i) || typeof i.id !== "string" || !isTextOrNull(i.created)) return null;
  if (!isTextOrNull(i.cwd) || !isTextOrNull(i.continues)) return null;
  if (!isRecord(l) || typeof l.name !== "string" || !isCount(l.bytes)) return null;
  if (typeof l.tailSha256 !== "string" || !SHA256_HEX.test(l.tailSha256)) return null;
  if (!isRecord(d) || !isTextOrNull(d.title) || !isCount(d.messages) || !isTextOrNull(d.lastActivity)) return null;
  if (!isTextOrNull(d.model) || !isAmount(d.inputTokens) || !isAmount(d.outputTokens)) return null;
  return {
    cacheFormat: 1,
    identity: { id: i.id, created: i.created, cwd: i.cwd, continues: i.continues },
    log: { name: l.name, bytes: l.bytes, tailSha256: l.tailSha256 },
    checkpointAt: value.checkpointAt,
    details: {
      title: d.title,
      messages: d.messages,
      lastActivity: d.lastActivity,
      model: d.model,
      inputTokens: d.inputTokens,
      outputTokens: d.outputTokens,
    },
  };
}

/** Room for any usual checkpoint (a few hundred bytes), reused: one read each, and no buffer left to collect. */
const scratch = Buffer.allocUnsafe(64 * 1024);

/** A checkpoint file's text: one positioned read into `scratch`, the rest read only for a larger file. */
function readCheckpointText(path: string): string {
  const { bytes, size } = readFileStartSync(path, scratch);
  if (bytes === size) return scratch.toString("utf8", 0, bytes);
  const { fd, stat } = openRegularSync(path);
  try {
    // Oda replaces a checkpoint by a rename, so the file open here does not grow meanwhile.
    return readRange(fd, 0, stat.size).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** Reads a checkpoint file: `null` when absent, `{error}` when it cannot be read or does not fit the schema. */
export async function readCheckpoint(
  path: string,
): Promise<{ checkpoint: Checkpoint } | { error: string; system?: boolean } | null> {
  let text: string;
  try {
    text = readCheckpointText(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    if (isSystemError(error)) return { error: systemErrorSentence(error, path), system: true };
    return { error: (error as Error).message };
  }
  return parseCheckpoint(text);
}

/** Parses a checkpoint file's text (see `readCheckpoint`). */
export async function parseCheckpoint(text: string): Promise<{ checkpoint: Checkpoint } | { error: string }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON (${(error as Error).message})` };
  }
  const fast = acceptCheckpoint(value);
  if (fast) return { checkpoint: fast };
  const { ZCheckpoint } = await import("./checkpoint-schema");
  const parsed = ZCheckpoint.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `${issue?.path.join(".") || "the file"}: ${issue?.message ?? "invalid"}` };
  }
  return { checkpoint: parsed.data };
}

/** sha256 (hex) of the last min(bytes, 4096) bytes before offset `bytes` of a file as stored. */
export function hashLogTail(path: string, bytes: number): string {
  const { fd } = openRegularSync(path);
  try {
    return sha256Hex(readRange(fd, Math.max(0, bytes - 4096), bytes));
  } finally {
    closeSync(fd);
  }
}

function discard(reason: string): CacheVerdict {
  return { state: "discarded", reason, behindBytes: 0 };
}

/**
 * Judges a checkpoint: served while the identity matches, `log.name` is the
 * newest log, the log is at least `bytes` long and the tail hash matches. A
 * longer log means the cache is behind (still served); anything else discards it.
 */
export function judgeCheckpoint(
  checkpoint: Checkpoint,
  identity: ChatIdentity,
  log: { name: string; path: string; size: number; hashTail?: (bytes: number) => string },
): CacheVerdict {
  const want = checkpoint.identity;
  for (const key of ["id", "created", "cwd", "continues"] as const) {
    if (want[key] !== identity[key]) {
      return discard(
        `The checkpoint's ${key} ${JSON.stringify(want[key])} does not match the chat's ${JSON.stringify(identity[key])}.`,
      );
    }
  }
  if (checkpoint.log.name !== log.name)
    return discard(`The checkpoint is for ${checkpoint.log.name}, but the newest log is ${log.name}.`);
  if (log.size < checkpoint.log.bytes) {
    return discard(
      `The checkpoint is ahead of the log: it counts ${checkpoint.log.bytes} bytes, the log has ${log.size}.`,
    );
  }
  const tail = log.hashTail ? log.hashTail(checkpoint.log.bytes) : hashLogTail(log.path, checkpoint.log.bytes);
  if (tail !== checkpoint.log.tailSha256) {
    return discard("The log's bytes before the checkpoint's offset no longer match its tail hash.");
  }
  const behindBytes = log.size - checkpoint.log.bytes;
  return behindBytes
    ? { state: "behind", reason: `The log has ${behindBytes} bytes more than the checkpoint counts.`, behindBytes }
    : { state: "cached", reason: "The checkpoint matches the log.", behindBytes: 0 };
}
