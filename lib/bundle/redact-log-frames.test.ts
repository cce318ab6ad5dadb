import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { describe, expect, it } from "vitest";
import { filler, MAIL, message, run, temp, unzstd } from "../../test-support/bundle/redact-log-testing";

// redact-log.ts's zstd logs (docs/mutation.md): frames of about 1 MiB written anew, a cut frame kept cut, a
// damaged one ended, and the lazy start: the original's whole frames before the first change copied as they are.
// Exact bytes: zstd at level 3 makes the same frame of the same bytes.

describe("redactLog, zstd frames", () => {
  it("writes the redacted lines in zstd frames; unchanged, the same lines", async () => {
    const dir = temp();
    const file = join(dir, "log.jsonl.zst");
    const lines = `${message("a")}\n${message(MAIL)}\n`;
    writeFileSync(file, await compress(Buffer.from(lines), 3));
    const { res, written } = await run(file, { compressed: true });
    expect(await unzstd(written)).toBe(lines.replace(MAIL, "<email-1>"));
    expect(res).toMatchObject({ changed: true, lines: 2, bytes: written.length, unreadable: null });
    // Lines are grouped into frames of about 1 MiB, at level 3: these few lines are one frame.
    expect(written.equals(await compress(Buffer.from(lines.replace(MAIL, "<email-1>")), 3))).toBe(true);
  });

  it("starts a new frame once about 1 MiB of lines is held", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const lines = Array.from({ length: 12 }, (_, i) => `${message(`${i} ${filler(i, 100_000)}`)}\n`);
    lines.push(`${message(MAIL)}\n`);
    writeFileSync(file, await compress(Buffer.from(lines.join("")), 3));
    const { written } = await run(file, { compressed: true });
    const want = lines.join("").replace(MAIL, "<email-1>");
    const cut = lines.slice(0, 11).join("").length; // the first line that brings the batch to 1 MiB ends it
    expect(cut).toBeGreaterThanOrEqual(1024 * 1024);
    const first = await compress(Buffer.from(want.slice(0, cut)), 3);
    expect(written.subarray(0, first.length).equals(first)).toBe(true);
    expect(written.subarray(first.length).equals(await compress(Buffer.from(want.slice(cut)), 3))).toBe(true);
  });

  it("lazy: copies the original's whole frames before the first change as they are", async () => {
    const dir = temp();
    const file = join(dir, "log.jsonl.zst");
    const first = Buffer.from(`${message(filler(1, 150_000))}\n${message("b")}\n`);
    const second = Buffer.from(`${message("c")}\n${message(MAIL)}\n`);
    const frame1 = await compress(first, 3);
    writeFileSync(file, Buffer.concat([frame1, await compress(second, 3)]));
    const { res, written } = await run(file, { compressed: true, lazy: true });
    expect(written.subarray(0, frame1.length).equals(frame1)).toBe(true);
    expect(await unzstd(written)).toBe(`${first}${second}`.replace(MAIL, "<email-1>"));
    expect(res).toMatchObject({ changed: true, again: false, bytes: written.length });

    const clean = join(dir, "clean.jsonl.zst");
    writeFileSync(clean, frame1);
    expect((await run(clean, { compressed: true, lazy: true })).written.length).toBe(0);
  });

  it("lazy: a change inside a frame keeps that frame's lines before it, encoded again", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const head = Buffer.from(`${message(filler(2, 150_000))}\n`);
    const body = Buffer.from(`${message("b")}\n${message("c")}\n${message(MAIL)}\n`);
    const frame1 = await compress(head, 3);
    writeFileSync(file, Buffer.concat([frame1, await compress(body, 3)]));
    const { written } = await run(file, { compressed: true, lazy: true });
    expect(written.subarray(0, frame1.length).equals(frame1)).toBe(true);
    expect(await unzstd(written)).toBe(`${head}${body}`.replace(MAIL, "<email-1>"));
  });

  it("keeps a cut last frame a cut frame, made anew from the redacted tail", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const whole = await compress(Buffer.from(`${message("a")}\n`), 3);
    const cut = (await compress(Buffer.from(`{"to":"${MAIL}"} and more text to cut`), 3)).subarray(0, 20);
    writeFileSync(file, Buffer.concat([whole, cut]));
    const { res, written } = await run(file, { compressed: true });
    expect(res.changed).toBe(true);
    expect(written.toString("latin1")).not.toContain(MAIL);
    const cutOf = (frame: Buffer) => frame.subarray(0, Math.max(6, frame.length - 4)); // 4 bytes short, 6 at least
    // Nothing of a cut frame could be decoded: the new one is made of one space.
    const bare = join(temp(), "bare.jsonl.zst");
    writeFileSync(bare, Buffer.concat([whole, (await compress(Buffer.from("x".repeat(5000)), 3)).subarray(0, 12)]));
    const space = await compress(Buffer.from(" "), 3);
    expect((await run(bare, { compressed: true })).written.equals(Buffer.concat([whole, cutOf(space)]))).toBe(true);
    const again = join(temp(), "again.jsonl.zst");
    writeFileSync(again, written);
    // Read again, the output is the same log: its whole frame, then a cut one.
    const reread = await run(again, { compressed: true });
    expect(reread.res.lines).toBe(res.lines);
  });

  it("a log that cannot be decoded past a frame keeps the lines before it, then bytes where no frame starts", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const good = await compress(Buffer.from(`${message("a")}\n`), 3);
    writeFileSync(file, Buffer.concat([good, Buffer.from("this is no zstd frame at all")]));
    const { res, written } = await run(file, { compressed: true });
    expect(res.unreadable).toEqual(expect.any(String));
    expect(res.changed).toBe(true);
    expect(written.subarray(-4).equals(Buffer.alloc(4))).toBe(true);
    expect(await unzstd(written.subarray(0, -4))).toBe(`${message("a")}\n`);
  });

  it("lazy: a changed line that starts a frame starts the writing there", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const head = Buffer.from(`${message(filler(3, 150_000))}\n`);
    const body = Buffer.from(`${message(MAIL)}\n${message("c")}\n`);
    const frame1 = await compress(head, 3);
    writeFileSync(file, Buffer.concat([frame1, await compress(body, 3)]));
    const { res, written } = await run(file, { compressed: true, lazy: true });
    expect(res.again).toBe(false);
    const rest = await compress(Buffer.from(body.toString().replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([frame1, rest]))).toBe(true);
  });

  it("lazy: a change far into a long frame keeps everything of that frame before it, once", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const head = Buffer.from(`${message(filler(4, 150_000))}\n`);
    const body = Buffer.from(`${message(filler(5, 200_000))}\n${message(filler(6, 200_000))}\n${message(MAIL)}\n`);
    const frame1 = await compress(head, 3);
    writeFileSync(file, Buffer.concat([frame1, await compress(body, 3)]));
    const { written } = await run(file, { compressed: true, lazy: true });
    const rest = await compress(Buffer.from(body.toString().replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([frame1, rest]))).toBe(true);
  });

  it("lazy: a frame boundary inside a line counts once that line has ended", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const text = `${message("a")}\n${message(filler(7, 150_000))}\n${message("c")}\n${message(MAIL)}\n`;
    const at = 100_000; // inside the second line
    const frame1 = await compress(Buffer.from(text.slice(0, at)), 3);
    writeFileSync(file, Buffer.concat([frame1, await compress(Buffer.from(text.slice(at)), 3)]));
    const { written } = await run(file, { compressed: true, lazy: true });
    // The first frame as it is, then the rest from the boundary (the end of the long line) encoded again.
    const rest = await compress(Buffer.from(text.slice(at).replace(MAIL, "<email-1>")), 3);
    expect(written.equals(Buffer.concat([frame1, rest]))).toBe(true);
  });

  it("lazy: a change in the first frame, past a line longer than a piece, writes the whole log again", async () => {
    const file = join(temp(), "log.jsonl.zst");
    const text = `${message(filler(8, 150_000))}\n${message(MAIL)}\n${message("c")}\n`;
    writeFileSync(file, await compress(Buffer.from(text), 3));
    const { written } = await run(file, { compressed: true, lazy: true });
    expect(written.equals(await compress(Buffer.from(text.replace(MAIL, "<email-1>")), 3))).toBe(true);
  });

  it("lazy, plain: copies the bytes before the first change in pieces of 4 MiB", async () => {
    const file = join(temp(), "log.jsonl");
    const line = `${message(filler(9, 100_000))}\n`;
    const text = `${line.repeat(50)}${message(MAIL)}\n`; // 5 MB before the change
    writeFileSync(file, text);
    const { written, writes } = await run(file, { compressed: false, lazy: true });
    expect(written.toString()).toBe(text.replace(MAIL, "<email-1>"));
    expect(writes[0]?.length).toBe(4 * 1024 * 1024);
    expect(writes[1]?.length).toBe(line.length * 50 - 4 * 1024 * 1024);
  });
});
