import { Readable } from "node:stream";
import { type SeekPoint, streamLog } from "./log-stream";

/**
 * One line of a log as a stream of its bytes (without its `\n`), decoded from
 * a seek point before it: a line of any length (one over the line limit
 * included) is passed on piece by piece, never held whole.
 */
export async function* streamLineBytes(
  path: string,
  compressed: boolean,
  from: SeekPoint,
  n: number,
): AsyncGenerator<Buffer> {
  // `line` is the number of the line the next byte belongs to.
  let line = from.line + 1;
  for await (const item of streamLog(path, { compressed, from })) {
    if (item.type === "end") return;
    const data = item.data;
    let pos = 0;
    while (line < n) {
      const nl = data.indexOf(10, pos);
      if (nl < 0) break;
      line++;
      pos = nl + 1;
    }
    if (line < n) continue;
    const nl = data.indexOf(10, pos);
    if (nl >= 0) {
      if (nl > pos) yield data.subarray(pos, nl);
      return;
    }
    if (pos < data.length) yield data.subarray(pos);
  }
}

/** `streamLineBytes` as a Node stream (the download route). */
export function openLineStream(path: string, compressed: boolean, from: SeekPoint, n: number): Readable {
  return Readable.from(streamLineBytes(path, compressed, from, n));
}
