import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fresh, HEX, MAIL, message, run, temp } from "../../test-support/bundle/redact-log-testing";
import { DetailsRebuild } from "../chats/details";
import { setLogLimits } from "../chats/limits";
import { decodedView, lineTouches, redactLine, redactLog } from "./redact-log";

// redact-log.ts on its own, with small logs written here (docs/mutation.md): what a line becomes, and what a
// plain log becomes, with lines over the limit; zstd frames and the lazy start are redact-log-frames.test.ts's.

afterEach(() => setLogLimits(null));

describe("decodedView", () => {
  it("decodes every JSON escape, and leaves a text without one as it is", () => {
    expect(decodedView("plain text")).toBe("plain text");
    expect(decodedView(String.raw`a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9\u00E9`)).toBe('a"b\\c/d\be\ff\ng\rh\tiAéé');
    // Not an escape: left as it is.
    expect(decodedView(String.raw`\x \u12 \u12G4`)).toBe(String.raw`\x \u12 \u12G4`);
  });

  it("lets a reader see a string decoded: an escaped line end before a token, an escaped letter", () => {
    const line = String.raw`{"text":"see\nghp_Qw3rTy0123456789AsDfGhJkLzXcVbNm1234"}`;
    expect(JSON.parse(redactLine(line, fresh(), false)).text).toBe("see\n<key-1>");
    // Read as it is, a keyword written with an escape is no keyword.
    const word = String.raw`{"k":"falcon\u0078"}`;
    expect(fresh().touches(word)).toBe(false);
    expect(lineTouches(word, fresh())).toBe(true);
    expect(redactLine(word, fresh(), false)).toBe('{"k":"<keyword-1>"}');
    expect(lineTouches(JSON.stringify({ text: "nothing here" }), fresh())).toBe(false);
  });
});

describe("redactLine", () => {
  it("returns a line with nothing to replace as it is, and a line that is no JSON object as text", () => {
    const same = '{ "a" :  1, "b":"\\u0041" }';
    expect(redactLine(same, fresh(), false)).toBe(same);
    expect(redactLine(`mail ${MAIL} "x"`, fresh(), false)).toBe('mail <email-1> "x"');
    expect(redactLine(`["${MAIL}"]`, fresh(), false)).toBe('["<email-1>"]');
  });

  it("changes only the strings that change: spacing, numbers and other strings' escapes stay", () => {
    const line = `{ "n" : 1.50 ,"esc":"\\u0041\\/", "to" :  "${MAIL}\\t" , "k":"falconx"}`;
    expect(redactLine(line, fresh(), false)).toBe(
      `{ "n" : 1.50 ,"esc":"\\u0041\\/", "to" :  "<email-1>\\t" , "k":"<keyword-1>"}`,
    );
  });

  it("redacts keys as keys, and gives a value the lead of its key only when the value follows it", () => {
    // A bare hex string is a secret only after a key that names one.
    expect(redactLine(`{"token": "${HEX}"}`, fresh(), false)).toBe('{"token": "<key-1>"}');
    expect(redactLine(`{"token":"${HEX}"}`, fresh(), false)).toBe('{"token":"<key-1>"}');
    expect(redactLine(`{"token"  :  \t"${HEX}"}`, fresh(), false)).toBe('{"token"  :  \t"<key-1>"}');
    // Not right after its key: no lead (an address elsewhere makes each line one to look into).
    const other = `"to":"${MAIL}"`;
    expect(redactLine(`{"token":["${HEX}"],${other}}`, fresh(), false)).toBe(`{"token":["${HEX}"],"to":"<email-1>"}`);
    expect(redactLine(`{"token":"x","note":"${HEX}",${other}}`, fresh(), false)).toBe(
      `{"token":"x","note":"${HEX}","to":"<email-1>"}`,
    );
    expect(redactLine(`{"token": 1, "n": "${HEX}",${other}}`, fresh(), false)).toBe(
      `{"token": 1, "n": "${HEX}","to":"<email-1>"}`,
    );
    expect(redactLine(`{"falconx": "${MAIL}"}`, fresh(), false)).toBe('{"<keyword-1>": "<email-1>"}');
  });

  it("with dropText: a JSON line is written again with its texts dropped, any other line redacted as text", () => {
    const line = `{"type":"message","role":"user","text":"${MAIL}","to":"${MAIL}",  "n":1}`;
    expect(redactLine(line, fresh(), true)).toBe(
      `{"type":"message","role":"user","text":"${"x".repeat(MAIL.length)}","to":"<email-1>","n":1}`,
    );
    expect(redactLine('{"type":"x", "n":1}', fresh(), true)).toBe('{"type":"x","n":1}');
    expect(redactLine(`not json ${MAIL}`, fresh(), true)).toBe("not json <email-1>");
  });
});

// ---- whole logs -----------------------------------------------------------------------------------------

describe("redactLog, plain", () => {
  it("writes every line, only the secrets changed; counts lines, bytes and details from what it wrote", async () => {
    const dir = temp();
    const file = join(dir, "log.jsonl");
    const text = `${message("hello")}\n${message(`mail ${MAIL}`, "2026-01-02T00:00:00Z")}\nnot json ${MAIL}\n`;
    writeFileSync(file, text);
    const seen: string[] = [];
    const { res, written } = await run(file, { compressed: false, onDecode: (s) => seen.push(s) });
    const want = text.replaceAll(MAIL, "<email-1>");
    expect(written.toString()).toBe(want);
    expect(res).toMatchObject({ changed: true, lines: 3, bytes: Buffer.byteLength(want), unreadable: null });
    expect(res.again).toBe(false);
    expect(res.rebuilt).toBeNull();
    expect(res.details).toMatchObject({ messages: 2, title: "hello", lastActivity: "2026-01-02T00:00:00Z" });
    expect(seen).toEqual([file]);
  });

  it("with nothing to replace: unchanged, and the same bytes; an unfinished tail stays unfinished", async () => {
    const file = join(temp(), "log.jsonl");
    const text = `${message("a")}\n\n${message("b")}\n${message("the tail")}`;
    writeFileSync(file, text);
    const { res, written } = await run(file, { compressed: false });
    expect(written.toString()).toBe(text);
    expect(res).toMatchObject({ changed: false, lines: 3, bytes: text.length });
    // The tail is no complete line, though a JSON object: no part of the details.
    expect(res.details.messages).toBe(2);
  });

  it("redacts an unfinished tail, still without a line end", async () => {
    const file = join(temp(), "log.jsonl");
    writeFileSync(file, `${message("a")}\n{"to":"${MAIL}`);
    const { res, written } = await run(file, { compressed: false });
    expect(written.toString()).toBe(`${message("a")}\n{"to":"<email-1>`);
    expect(res.changed).toBe(true);
  });

  it("with no output: counts only, writes nothing", async () => {
    const file = join(temp(), "log.jsonl");
    writeFileSync(file, `${message(MAIL)}\n`);
    const r = fresh();
    const res = await redactLog(file, null, { compressed: false, redactor: r, dropText: false });
    expect(res).toMatchObject({ changed: true, lines: 1, bytes: 0 });
    expect(res.details.messages).toBe(0);
    expect(r.mapEntries()).toEqual([{ kind: "email", placeholder: "<email-1>", value: MAIL }]);
  });

  it("with rebuild: gives what the reader finds in the original, from the same read", async () => {
    const file = join(temp(), "log.jsonl");
    writeFileSync(file, `${message(`mail ${MAIL}`)}\nbad line\n${message("b")}\n{"tail":`);
    const { res } = await run(file, { compressed: false, rebuild: new DetailsRebuild() });
    expect(res.rebuilt).toMatchObject({ lines: 3, badLines: [2], error: null });
    expect(res.rebuilt?.details).toMatchObject({ title: `mail ${MAIL}`, messages: 2 }); // the original's
    expect(res.rebuilt?.tail).not.toBeNull();
    expect(res.details).toMatchObject({ title: "mail <email-1>", messages: 2 }); // what was written
  });

  it("lazy: writes nothing when nothing changes, and the original's bytes before the first change", async () => {
    const dir = temp();
    const clean = join(dir, "clean.jsonl");
    writeFileSync(clean, `${message("a")}\n${message("b")}\n`);
    const none = await run(clean, { compressed: false, lazy: true });
    expect(none.written.length).toBe(0);
    expect(none.res).toMatchObject({ changed: false, bytes: 0, again: false });

    const file = join(dir, "log.jsonl");
    const text = `${message("a")}\n  ${message("b")}\n${message(MAIL)}\n${message("c")}\n`;
    writeFileSync(file, text);
    const lazy = await run(file, { compressed: false, lazy: true });
    const eager = await run(file, { compressed: false });
    expect(lazy.written.toString()).toBe(text.replace(MAIL, "<email-1>"));
    expect(lazy.written.equals(eager.written)).toBe(true);
    expect(lazy.res).toMatchObject({ changed: true, bytes: lazy.written.length, again: false });
    // The details are those of the lines written after the start.
    expect(lazy.res.details.messages).toBe(2);
  });
});

describe("redactLog, lines over the limit", () => {
  it("redacts a long line as it streams by and writes it whole, not in the details", async () => {
    setLogLimits({ maxLineBytes: 64 * 1024 });
    const file = join(temp(), "log.jsonl");
    const long = message(`${"word ".repeat(20_000)}${MAIL} end`);
    writeFileSync(file, `${message("a")}\n${long}\n${message("b")}\n`);
    const rebuild = new DetailsRebuild();
    const { res, written } = await run(file, { compressed: false, rebuild });
    expect(written.toString()).toBe(`${message("a")}\n${long.replace(MAIL, "<email-1>")}\n${message("b")}\n`);
    expect(res).toMatchObject({ changed: true, lines: 3 });
    expect(res.details.messages).toBe(2);
    expect(res.rebuilt).toMatchObject({ lines: 3, longLines: [{ n: 2, length: Buffer.byteLength(long) }] });
    // Without a rebuild, the same.
    expect((await run(file, { compressed: false })).written.equals(written)).toBe(true);
  });

  it("leaves a long line with nothing to replace unchanged, and an unfinished one unfinished", async () => {
    setLogLimits({ maxLineBytes: 64 * 1024 });
    const dir = temp();
    const clean = join(dir, "clean.jsonl");
    const long = message(`${"word ".repeat(20_000)} end`);
    writeFileSync(clean, `${long}\n${message("b")}\n`);
    expect((await run(clean, { compressed: false })).res).toMatchObject({ changed: false, lines: 2 });

    const tail = join(dir, "tail.jsonl");
    writeFileSync(tail, `${message("a")}\n${long.replace("end", MAIL)}`);
    const { res, written } = await run(tail, { compressed: false });
    expect(written.toString()).toBe(`${message("a")}\n${long.replace("end", "<email-1>")}`);
    expect(res).toMatchObject({ changed: true, lines: 1 });
  });
});

describe("redactLog and its output", () => {
  it("passes on an error of the output: it is no log that cannot be read", async () => {
    const file = join(temp(), "log.jsonl");
    writeFileSync(file, `${message(MAIL)}\n`);
    const broken = {
      write: () => {
        throw new Error("no space left");
      },
    };
    await expect(redactLog(file, broken, { compressed: false, redactor: fresh(), dropText: false })).rejects.toThrow(
      "no space left",
    );
  });
});
