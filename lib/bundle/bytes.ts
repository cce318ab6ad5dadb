import { isUtf8 } from "node:buffer";

/**
 * Redaction on bytes: a file is never decoded and encoded again where nothing
 * in it changes. Only runs of valid UTF-8 are handed to the redactor as text;
 * any byte that is not part of one (a file that is "not valid UTF-8" must stay
 * so, it is the problem support has to see) is copied as it is.
 */

/** The length of the valid UTF-8 sequence at `i` (1 to 4), or 0 when the byte there starts none. */
function sequenceAt(b: Buffer, i: number): number {
  const c = b[i] as number;
  if (c < 0x80) return 1;
  const need = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (need === 0 || i + need > b.length) return 0;
  const c1 = b[i + 1] as number;
  // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (c1 < lo || c1 > hi) return 0;
  for (let k = 2; k < need; k++) if (((b[i + k] as number) & 0xc0) !== 0x80) return 0;
  return need;
}

/**
 * `data` with each run of valid UTF-8 text passed through `change`; the same
 * buffer (not a copy) when no run changed. A valid file is one run.
 */
export function redactBytes(data: Buffer, change: (text: string) => string): Buffer {
  if (isUtf8(data)) {
    const text = data.toString("utf8");
    const out = change(text);
    return out === text ? data : Buffer.from(out);
  }
  const parts: Buffer[] = [];
  let changed = false;
  let i = 0;
  let run = 0;
  const endRun = (to: number) => {
    if (to > run) {
      const text = data.toString("utf8", run, to);
      const out = change(text);
      if (out !== text) changed = true;
      parts.push(out === text ? data.subarray(run, to) : Buffer.from(out));
    }
  };
  while (i < data.length) {
    const n = sequenceAt(data, i);
    if (n > 0) {
      i += n;
      continue;
    }
    endRun(i);
    parts.push(data.subarray(i, i + 1));
    i += 1;
    run = i;
  }
  endRun(i);
  return changed ? Buffer.concat(parts) : data;
}
