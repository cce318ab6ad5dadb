import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import fc from "fast-check";
import { summarizeChat } from "../../lib/chats/chat";
import { locateChat } from "../../lib/chats/folder";
import { type LogLimits, logLimits, setLogLimits } from "../../lib/chats/limits";
import { readLogLines } from "../../lib/chats/line-index";
import { isOdaError } from "../../lib/errors";

/**
 * Fuzzing the log reader (the fuzz convention: `fuzz<Name>(runs, seed)`):
 * fast-check builds logs from lines (objects, bad JSON, non-objects, empty,
 * binary, CRLF, unicode, over the line limit, with or without a final newline)
 * in plain or zstd form (frames with and without a content size, skippable
 * frames, small bombs under lowered limits), sometimes cut or with bytes
 * flipped, writes each as a real chat folder and reads it with the real
 * reader. It throws, with the input, on a crash other than an `OdaError`, on a
 * hang, on a problem without a sentence, and, for inputs not cut or flipped,
 * on a bad line, long line or unfinished tail that is not reported.
 */

/** Lowered limits so bombs and long lines stay small enough to make by the thousand. */
const FUZZ_LIMITS: Partial<LogLimits> = { maxLineBytes: 16 * 1024, ratioFloor: 128 * 1024, maxRatio: 1000 };
const HANG_MS = 60_000;
const TS = "2026-11-29T18:24:08.123Z";

/** A generated log: its lines (without `\n`), the final newline, the form, and damage. */
interface LogInput {
  lines: Buffer[];
  finalNewline: boolean;
  zstd: { splits: number[]; skippable: number[]; cli: boolean; level: number } | null;
  bomb: { byte: 0 | 10; bytes: number } | null;
  damage: { cut: number } | { flip: number[] } | null;
}

/** A line of "0 1 2 …" text: long, but compressing only about 5× (a bomb guard must not take it for a bomb). */
function numbersLine(bytes: number): Buffer {
  const parts: string[] = [];
  let n = 0;
  for (let len = 10; len < bytes; n++) {
    parts.push(String(n));
    len += String(n).length + 1;
  }
  return Buffer.from(`{"type":"message","ts":"${TS}","role":"user","text":"${parts.join(" ")}"}`);
}

const arbLine: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record({ role: fc.constantFrom("user", "assistant", "system"), text: fc.string({ maxLength: 60 }) })
      .map(({ role, text }) =>
        Buffer.from(JSON.stringify({ type: "message", ts: TS, role, content: [{ type: "text", text }] })),
      ),
  },
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: "grapheme", maxLength: 30 })
      .map((t) => Buffer.from(JSON.stringify({ type: "title", ts: TS, title: t }))),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("{", "[1,2]", "42", '"text"', "null", "{]}", '{"a":}', "", " ", "{}\r")
      .map((t) => Buffer.from(t)),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 48 }).map((b) => Buffer.from(b.filter((x) => x !== 10))),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(`${JSON.stringify(v) ?? "null"}\r`)) },
  { weight: 1, arbitrary: fc.integer({ min: 17 * 1024, max: 40 * 1024 }).map(numbersLine) },
);

const arbInput: fc.Arbitrary<LogInput> = fc.record({
  lines: fc.array(arbLine, { maxLength: 25 }),
  finalNewline: fc.boolean(),
  zstd: fc.option(
    fc.record({
      splits: fc.array(fc.nat(), { maxLength: 3 }),
      skippable: fc.array(fc.nat({ max: 40 }), { maxLength: 2 }),
      // The CLI reading stdin writes frames without a content size; one input in ten (it costs a process).
      cli: fc.integer({ min: 0, max: 9 }).map((x) => x === 0),
      level: fc.integer({ min: 1, max: 9 }),
    }),
    { freq: 3 },
  ),
  bomb: fc.option(
    fc.record({
      byte: fc.constantFrom(0 as const, 10 as const),
      bytes: fc.integer({ min: 2, max: 8 }).map((m) => m * 128 * 1024),
    }),
    { freq: 12 },
  ),
  damage: fc.option(
    fc.oneof(fc.record({ cut: fc.nat() }), fc.record({ flip: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) })),
    { freq: 4 },
  ),
});

/** The decoded text of an input, and what a reader must report for it when it is not damaged. */
function plainOf(input: LogInput): Buffer {
  const body = Buffer.concat(
    input.lines.flatMap((l, i) => (i < input.lines.length - 1 || endsLine(input) ? [l, Buffer.from("\n")] : [l])),
  );
  if (!input.bomb) return body;
  // A bomb sits after the lines; a plain one stays small (it is not compressed, so not a bomb, just many bytes).
  const size = input.zstd ? input.bomb.bytes : 8 * 1024;
  return Buffer.concat([body, Buffer.alloc(size, input.bomb.byte)]);
}

function skippableFrame(n: number): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(0x184d2a50 + (n % 16), 0);
  head.writeUInt32LE(n, 4);
  return Buffer.concat([head, Buffer.alloc(n, 0xab)]);
}

/** True when the generated lines end with a newline (always before a bomb). */
function endsLine(input: LogInput): boolean {
  return input.finalNewline || input.bomb !== null;
}

/** The file's bytes: plain, or zstd frames (native with a content size, or the CLI's without one). */
async function fileOf(input: LogInput, plain: Buffer): Promise<Buffer> {
  let bytes = plain;
  if (input.zstd) {
    const cuts = [...new Set(input.zstd.splits.map((s) => (plain.length ? s % plain.length : 0)))].sort(
      (a, b) => a - b,
    );
    const pieces = [0, ...cuts, plain.length].slice(1).map((end, i, ends) => plain.subarray(i ? ends[i - 1] : 0, end));
    const frames: Buffer[] = [];
    for (const [i, piece] of pieces.entries()) {
      if (!piece.length && pieces.length > 1) continue;
      frames.push(
        input.zstd.cli
          ? execFileSync("zstd", ["-q", "-c", `-${input.zstd.level}`], { input: piece })
          : await compress(piece, input.zstd.level),
      );
      const skip = input.zstd.skippable[i];
      if (skip !== undefined) frames.push(skippableFrame(skip));
    }
    bytes = Buffer.concat(frames);
  }
  const damage = input.damage;
  if (!damage || !bytes.length) return bytes;
  if ("cut" in damage) return bytes.subarray(0, damage.cut % bytes.length);
  const out = Buffer.from(bytes);
  for (const at of damage.flip) out[at % out.length] = (out[at % out.length] as number) ^ 0x5a;
  return out;
}

function isObjectLine(line: Buffer): boolean {
  try {
    const v: unknown = JSON.parse(line.toString("utf8"));
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

async function withTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} did not finish within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** A sentence: text ending with a full stop, or with the contract's `raw log: <path>` note. */
function assertSentence(text: unknown, path: string, what: string): void {
  if (typeof text !== "string" || !(text.endsWith(".") || text.endsWith(`raw log: ${path}`)) || text.length < 10)
    throw new Error(`${what} is not a sentence: ${JSON.stringify(text)}`);
}

/** Reads one generated log with the real reader and checks what it reports. */
async function checkLog(root: string, n: number, input: LogInput): Promise<void> {
  const id = `c-fuzz-${n}`;
  const dir = join(root, "_no-cwd", id);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, input.zstd ? "session.jsonl.zstd" : "session.jsonl");
  const plain = plainOf(input);
  const file = await fileOf(input, plain);
  writeFileSync(path, file);
  const loc = locateChat(root, id);
  const run = async () => {
    try {
      const summary = await summarizeChat(loc, { compress: input.zstd !== null, verify: true });
      const first = await readLogLines(path, input.zstd !== null, 1, 400);
      const last = await readLogLines(path, input.zstd !== null, -20, 21);
      return { summary, first, last };
    } catch (error) {
      if (isOdaError(error)) {
        assertSentence(error.message, path, "a refusal");
        return null;
      }
      throw error;
    }
  };
  const read = await withTimeout(`reading ${path}`, run());
  if (!read) return;
  const { summary, first, last } = read;
  for (const p of summary.problems) assertSentence(p.message, path, "a problem");
  for (const r of [first, last]) {
    if (r.error) assertSentence(r.error, path, "a read error");
    for (const l of r.lines) if (l.error) assertSentence(l.error, path, `line ${l.n}'s error`);
  }
  const messages = summary.problems.map((p) => p.message).join("\n");
  const stopped = /reading stopped at byte/.test(messages);
  // Decoded bytes beyond the ratio guard for the whole file must stop reading, whatever came before.
  const limits = logLimits();
  if (
    input.zstd &&
    !input.damage &&
    !stopped &&
    plain.length > Math.max(limits.ratioFloor, limits.maxRatio * file.length)
  )
    throw new Error(
      `${plain.length} decoded bytes from ${file.length} were read without the limit's sentence:\n${messages}`,
    );
  if (input.damage || stopped) return;
  // Undamaged and read to the end: every bad or long complete line and an unfinished tail are reported.
  const complete = endsLine(input) ? input.lines.length : input.lines.length - 1;
  for (let i = 0; i < Math.min(complete, 100); i++) {
    const line = input.lines[i] as Buffer;
    const want =
      line.length > logLimits().maxLineBytes
        ? `Line ${i + 1} of the log (at decoded byte`
        : isObjectLine(line)
          ? null
          : `Line ${i + 1} of the log is not a JSON object.`;
    if (want && !messages.includes(want)) throw new Error(`not reported: ${want}\n${messages}`);
    const shown = first.lines[i];
    if (shown?.n !== i + 1) throw new Error(`line ${i + 1} was not read back`);
    if (!want && shown.raw !== line.toString("utf8")) throw new Error(`line ${i + 1} was read back changed`);
  }
  const unfinished = input.bomb ? input.bomb.byte === 0 : !input.finalNewline && (input.lines.at(-1)?.length ?? 0) > 0;
  if (unfinished && !/unfinished line/.test(messages))
    throw new Error(`the unfinished tail was not reported:\n${messages}`);
}

/** Runs `runs` generated logs through the reader; returns how many inputs were read. */
export async function fuzzLogs(runs: number, seed?: number): Promise<{ inputs: number }> {
  const root = mkdtempSync(join(tmpdir(), "oda-fuzz-logs-"));
  const before = logLimits();
  setLogLimits(FUZZ_LIMITS);
  let inputs = 0;
  try {
    await fc.assert(
      fc.asyncProperty(arbInput, async (input) => {
        inputs++;
        await checkLog(root, inputs, input);
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
  } finally {
    setLogLimits(before);
    rmSync(root, { recursive: true, force: true });
  }
  return { inputs };
}
