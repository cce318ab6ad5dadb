import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { describe, expect, it } from "vitest";
import { testScope } from "../../test-support/bundle/test-scope";
import { createChat } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { logLimits } from "../chats/limits";
import { createBundle, prepareBundle } from "./create";
import type { BundleScope } from "./plan";
import { readBundle } from "./read";
import type { MapEntry } from "./redactor";
import { PIECE_CHARS } from "./text-stream";

/**
 * A line over the line limit (16 MiB) goes into a bundle whole and redacted:
 * the reader hands only its head to ordinary callers, the bundle streams it.
 * Secrets are planted across the points where its text is cut into pieces:
 * each piece ends at `PIECE_CHARS` or at the end of a value crossing it.
 */

const EMAIL = "zora.quist@northwind.example";
const HEX = "0123456789abcdef0123456789abcdef01234567";
const IP = "10.20.30.40";
const KEY = "ghp_Qw3rTy0123456789AsDfGhJkLzXcVbNm1234";

/** Filler text with nothing to redact, `n` characters long: random letters and spaces (a log that compresses 1000-fold is refused as a bomb). */
function filler(n: number): string {
  return Array.from(randomBytes(n), (b) => (b % 32 < 26 ? String.fromCharCode(97 + (b % 32)) : " ")).join("");
}

/**
 * The long text: each secret is placed across the next cut, the cut moves to
 * the secret's end, and the next one lies `PIECE_CHARS` further on. The secrets
 * are of each kind, with the word or folder that leads to a value before the
 * cut and the value after it. Returns the text and every planted value.
 */
function longText(): { text: string; planted: string[] } {
  const planted: string[] = [];
  const parts: string[] = [];
  let at = 0;
  let cut = PIECE_CHARS;
  const plant = (lead: string, value: string, valueBeforeCut: number) => {
    const start = cut - lead.length - valueBeforeCut;
    // A space after the value: a letter of the filler there would make another value (`….examplen`).
    parts.push(filler(start - at), lead, value, " ");
    at = start + lead.length + value.length;
    cut = at + PIECE_CHARS;
    at += 1;
    planted.push(value);
  };
  for (let i = 0; at < logLimits().maxLineBytes + 2 * PIECE_CHARS; i++) {
    if (i % 5 === 0) plant(" mail ", EMAIL, 7);
    else if (i % 5 === 1)
      plant(" see /home/", "zoraquist", 0); // the cut falls between the folder and the user
    else if (i % 5 === 2)
      plant(" token: ", HEX, 0); // between the word and the value
    else if (i % 5 === 3) plant(" addr ", IP, 4);
    else plant(" key ", KEY, 3);
  }
  parts.push(filler(5000));
  return { text: parts.join(""), planted };
}

async function longLog(base: string): Promise<{ logs: string; lines: string[]; planted: string[] }> {
  const logs = join(base, "logs");
  const w = createChat(logs, { id: "c-long", cwd: "/srv/reports", created: "2026-11-01T00:00:00.000Z" });
  await w.appendEvents([{ type: "title", ts: "2026-11-01T00:00:00.000Z", title: "long" }]);
  await w.close();
  const { text, planted } = longText();
  const lines = [
    JSON.stringify({ type: "message", ts: "2026-11-01T00:00:01.000Z", role: "user", content: "hello" }),
    JSON.stringify({
      type: "message",
      ts: "2026-11-01T00:00:02.000Z",
      role: "assistant",
      content: [{ type: "tool_result", tool_use_id: "t1", content: text, is_error: false }],
    }),
    JSON.stringify({ type: "message", ts: "2026-11-01T00:00:03.000Z", role: "user", content: `bye ${EMAIL}` }),
  ];
  expect(Buffer.byteLength(lines[1] as string)).toBeGreaterThan(logLimits().maxLineBytes);
  appendFileSync(w.logPath, await compress(Buffer.from(`${lines.join("\n")}\n`), 1));
  const all = execFileSync("zstd", ["-dcq", w.logPath], { maxBuffer: 1 << 30 })
    .toString("utf8")
    .split("\n");
  return { logs, lines: all, planted };
}

const scope: BundleScope = testScope();

async function bundleLog(base: string, logs: string, s: BundleScope) {
  const out = join(base, "b.tar.gz");
  const made = await createBundle({ home: null, logs }, s, out, { version: "test" });
  const unpacked = join(base, "unpacked");
  await readBundle(out, unpacked);
  const log = join(unpacked, "logs", "--%2Fsrv%2Freports--", "c-long", "session.v4.jsonl.zstd");
  const lines = execFileSync("zstd", ["-dcq", log], { maxBuffer: 1 << 30 })
    .toString("utf8")
    .split("\n");
  return { made, lines };
}

const longest = (lines: string[]) =>
  lines.reduce((best, l, i) => (l.length > (lines[best] as string).length ? i : best), 0);

describe("a line over the line limit in a bundle", () => {
  it("goes in whole, with every secret replaced, even one across the cut between two pieces", async () => {
    const base = tempFolder("oda-bundle-long-");
    const original = await longLog(base);
    const { made, lines } = await bundleLog(base, original.logs, scope);
    const at = longest(original.lines);
    expect(lines).toHaveLength(original.lines.length);
    const all = lines.join("\n");
    for (const value of [EMAIL, HEX, IP, KEY, "zoraquist"]) expect(all).not.toContain(value);
    // The long line is the original with each value replaced by its placeholder, and nothing else changed.
    const map = JSON.parse(readFileSync(made.mapFile, "utf8")) as { placeholders: MapEntry[] };
    let expected = JSON.parse(original.lines[at] as string).content[0].content as string;
    for (const { kind, placeholder, value } of map.placeholders) {
      // This computer's name (`vm`, say) may also be a word of the random filler: replaced as a whole word.
      if (kind === "host")
        expected = expected.replace(new RegExp(`(?<![A-Za-z0-9-])${value}(?![A-Za-z0-9-])`, "gi"), placeholder);
      else expected = expected.replaceAll(value, placeholder);
    }
    const long = JSON.parse(lines[at] as string);
    expect(long.content[0].content.length).toBe(expected.length);
    expect(long.content[0].content === expected).toBe(true);
    expect(long.role).toBe("assistant");
    // Every planted value counted once per occurrence, plus the short line's e-mail.
    const emails = original.planted.filter((v) => v === EMAIL).length + 1;
    expect(made.manifest.counts.replaced.email).toBe(emails);
    expect(made.manifest.counts.replaced.key).toBe(original.planted.filter((v) => v === HEX || v === KEY).length);
    // The preview counts the same, streaming the line without writing it.
    const preview = await prepareBundle({ home: null, logs: original.logs }, scope, null, { version: "test" });
    expect(preview.manifest.counts.replaced).toEqual(made.manifest.counts.replaced);
  }, 600_000);

  it("with --drop-text keeps its byte length and fills its text", async () => {
    const base = tempFolder("oda-bundle-long-");
    const original = await longLog(base);
    const { lines } = await bundleLog(base, original.logs, { ...scope, kinds: [], dropText: true });
    expect(lines.map((l) => Buffer.byteLength(l))).toEqual(original.lines.map((l) => Buffer.byteLength(l)));
    expect(JSON.parse(lines[longest(original.lines)] as string).content[0].content).toMatch(/^x+$/);
  }, 600_000);
});
