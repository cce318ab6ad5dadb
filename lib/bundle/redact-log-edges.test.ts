import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { describe, expect, it } from "vitest";
import { filler, fresh, MAIL, message, run, temp } from "../../test-support/bundle/redact-log-testing";
import { streamLog } from "../chats/log-stream";
import { redactLog } from "./redact-log";

// redact-log.ts at its edges (docs/mutation.md, written from the survivors of its first mutation runs): an
// output that fails, the log closed, a preview of a cut or damaged log, a frame boundary exactly at 1 MiB of
// lines, a cut frame that held some text, the lazy start from a small frame before a large one.

const cutOf = (frame: Buffer) => frame.subarray(0, Math.max(6, frame.length - 4)); // 4 bytes short, 6 at least

describe("redactLog at its edges", () => {
  it("passes on an error of the output (it is no log that cannot be read), and closes the log either way", async () => {
    const file = join(temp(), "log.jsonl");
    writeFileSync(file, `${message(MAIL)}\n`);
    let failures = 1;
    const once = {
      write: () => {
        if (failures-- > 0) throw new Error("no space left");
      },
    };
    const open = () => readdirSync("/proc/self/fd").length; // Linux, as the rest of the suite
    const before = open();
    await expect(redactLog(file, once, { compressed: false, redactor: fresh(), dropText: false })).rejects.toThrow(
      "no space left",
    );
    expect(open()).toBe(before);
    await run(file, { compressed: false });
    expect(open()).toBe(before);
  });

  it("passes on an error of the output met inside the read (a frame's flush after 1 MiB of lines)", async () => {
    const file = join(temp(), "log.jsonl");
    const line = `${message(filler(7, 100_000))}\n`;
    writeFileSync(file, `${line.repeat(12)}${message(MAIL)}\n`); // 1.2 MB: the first flush comes before the end
    let calls = 0;
    const failing = {
      write: () => {
        calls++;
        throw new Error("no space left");
      },
    };
    await expect(redactLog(file, failing, { compressed: false, redactor: fresh(), dropText: false })).rejects.toThrow(
      "no space left",
    );
    expect(calls).toBe(1);
  });

  it("previews a cut or damaged zstd log (no output) as changed, writing nothing", async () => {
    const dir = temp();
    const whole = await compress(Buffer.from(`${message("a")}\n`), 3);
    const cut = join(dir, "cut.jsonl.zst");
    writeFileSync(cut, Buffer.concat([whole, (await compress(Buffer.from("x".repeat(5000)), 3)).subarray(0, 12)]));
    const damaged = join(dir, "damaged.jsonl.zst");
    writeFileSync(damaged, Buffer.concat([whole, Buffer.from("this is no zstd frame at all")]));
    for (const file of [cut, damaged])
      expect((await run(file, { compressed: true }, false)).res).toMatchObject({ changed: true, lines: 1 });
  });

  it("ends a frame when the lines held reach exactly 1 MiB", async () => {
    const file = join(temp(), "log.jsonl.zst");
    // Lines of exactly 64 KiB with their line end: the 16th brings the batch to 1 MiB at a piece's end.
    const line = (i: number) => `${message(filler(20 + i, 65_536 - 1 - message("").length))}\n`;
    const lines = Array.from({ length: 18 }, (_, i) => line(i));
    expect(lines.every((l) => l.length === 65_536)).toBe(true);
    lines.push(`${message(MAIL)}\n`);
    writeFileSync(file, await compress(Buffer.from(lines.join("")), 3));
    const { written } = await run(file, { compressed: true });
    const first = await compress(Buffer.from(lines.slice(0, 16).join("")), 3);
    const rest = await compress(Buffer.from(lines.slice(16).join("").replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([first, rest]))).toBe(true);
  });

  it("makes a cut frame anew from the text the cut one held, redacted", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const whole = await compress(Buffer.from(`${message("a")}\n`), 3);
    // A text this short goes in a raw block: cut, its first bytes can still be read.
    const cut = (await compress(Buffer.from(`{"to":"${MAIL}","t":"x"}`), 3)).subarray(0, 48);
    writeFileSync(file, Buffer.concat([whole, cut]));
    let decoded = "";
    for await (const item of streamLog(file, { compressed: true })) if (item.type === "data") decoded += item.data;
    const tail = decoded.slice(decoded.indexOf("\n") + 1);
    expect(tail).toContain(MAIL);
    const { written } = await run(file, { compressed: true });
    const made = await compress(Buffer.from(tail.replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([whole, cutOf(made)]))).toBe(true);
  });

  it("lazy: a change in a line that starts in a small frame and runs on in a large one", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const head = `${message(filler(31, 150_000))}\n`;
    const long = `${message(`${filler(32, 150_000)} ${MAIL}`)}\n${message("c")}\n`;
    const frames = [head, long.slice(0, 1000), long.slice(1000)];
    const compressed = await Promise.all(frames.map((f) => compress(Buffer.from(f), 3)));
    writeFileSync(file, Buffer.concat(compressed));
    const { written } = await run(file, { compressed: true, lazy: true });
    const rest = await compress(Buffer.from(long.replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([compressed[0] as Buffer, rest]))).toBe(true);
  });

  it("counts no unfinished tail in the details, even one that changed and is a whole JSON object", async () => {
    const file = join(temp(), "log.jsonl");
    writeFileSync(file, `${message("a")}\n${message(MAIL)}`);
    const { res, written } = await run(file, { compressed: false });
    expect(written.toString()).toBe(`${message("a")}\n${message("<email-1>")}`);
    expect(res.details.messages).toBe(1);
  });

  it("lazy: a change in the line right after a frame boundary inside a line starts from that boundary", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const text = `${message("a")}\n${message(filler(33, 150_000))}\n${message(MAIL)}\n${message("c")}\n`;
    const at = 100_000; // inside the second line
    const frame1 = await compress(Buffer.from(text.slice(0, at)), 3);
    writeFileSync(file, Buffer.concat([frame1, await compress(Buffer.from(text.slice(at)), 3)]));
    const { written } = await run(file, { compressed: true, lazy: true });
    const rest = await compress(Buffer.from(text.slice(at).replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([frame1, rest]))).toBe(true);
  });
});
