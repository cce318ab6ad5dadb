import { compress as compressNative } from "@mongodb-js/zstd";
import { type Checkpoint, checkpointDetails } from "../chats/checkpoint";
import { DetailsBuilder } from "../chats/details";
import { parseObject } from "../chats/lines";
import { streamLog } from "../chats/log-stream";
import { withRawLog } from "../chats/problem";
import { OdaError } from "../errors";
import { sha256Of } from "./journal";

/**
 * Converting a log between the plain and the zstd form. The new file must
 * decode to exactly the bytes the old one decodes to (so every line, and an
 * unfinished last line, stays as it was); the staged copy is decoded again and
 * compared before anything is swapped.
 */

/** Frames of at most this many decompressed bytes, cut at line ends, so readers can seek. */
const FRAME_BYTES = 1024 * 1024;

/** A log's decompressed content. */
export interface DecodedLog {
  data: Buffer;
  /** Complete lines (ended by `\n`). */
  lines: number;
}

function countLines(data: Buffer): number {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * Decodes a whole log. A zstd log whose last frame is cut cannot be converted
 * without dropping the undecodable bytes, so it is refused.
 */
export async function decodeLog(path: string, compressed: boolean): Promise<DecodedLog> {
  const parts: Buffer[] = [];
  for await (const item of streamLog(path, { compressed })) {
    if (item.type === "data") parts.push(item.data);
    else if (item.cut)
      throw new OdaError(
        "refused",
        withRawLog(
          `${path} ends in a cut zstd frame at byte ${item.cut.offset}; converting it would drop the bytes that cannot be decoded, so it is not converted.`,
          path,
        ),
      );
  }
  const data = Buffer.concat(parts);
  return { data, lines: countLines(data) };
}

/** Encodes decompressed log bytes in a form: as they are, or zstd frames cut at line ends. */
export async function encodeLog(data: Buffer, compressed: boolean): Promise<Buffer> {
  if (!compressed) return Buffer.from(data);
  const frames: Buffer[] = [];
  for (let at = 0; at < data.length; ) {
    let end = Math.min(at + FRAME_BYTES, data.length);
    if (end < data.length) {
      const nl = data.lastIndexOf(10, end - 1);
      end = nl >= at ? nl + 1 : end;
    }
    frames.push(await compressNative(data.subarray(at, end), 3));
    at = end;
  }
  return Buffer.concat(frames);
}

/** Decodes a staged file and proves it holds the same lines as the source; throws otherwise. */
export async function verifyConverted(staged: string, compressed: boolean, source: DecodedLog): Promise<void> {
  const back = await decodeLog(staged, compressed);
  if (back.lines !== source.lines || sha256Of(back.data) !== sha256Of(source.data))
    throw new OdaError(
      "io",
      `The converted log ${staged} does not decode to the same lines as its source; nothing was changed.`,
    );
}

/** A fresh checkpoint for a converted log that is the chat's current state, built from its lines. */
export function rebuildCheckpoint(
  decoded: DecodedLog,
  encoded: Buffer,
  log: { name: string; id: string; cwd: string | null },
): Checkpoint {
  const builder = new DetailsBuilder();
  const complete = decoded.data.subarray(0, decoded.data.lastIndexOf(10) + 1).toString("utf8");
  for (const line of complete.split("\n")) {
    const json = line ? parseObject(line) : null;
    if (json) builder.add(json);
  }
  const details = builder.result();
  const identity = builder.identity(log.id, log.cwd);
  return {
    cacheFormat: 1,
    identity: { id: log.id, created: identity.created, cwd: log.cwd, continues: identity.continues },
    log: {
      name: log.name,
      bytes: encoded.length,
      tailSha256: sha256Of(encoded.subarray(Math.max(0, encoded.length - 4096))),
    },
    checkpointAt: new Date().toISOString(),
    details: checkpointDetails(details),
  };
}
