import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import examples from "../../test-support/bundle/fixtures/gitleaks-examples.json" with { type: "json" };
import { testScope } from "../../test-support/bundle/test-scope";
import { createChat } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { createBundle } from "./create";
import { REDACT_KINDS } from "./detectors";
import { Redactor } from "./redactor";
import { unpackBundle } from "./unpack";

/**
 * Recall against a real scanner's test set (issue 26): gitleaks' own rule tests' true positives
 * (fixtures/gitleaks-examples.json, made by scripts/gitleaks/make-rules.py), planted inline, on a line of
 * their own, in tool results and in memories, then a default bundle made. At least 90% must come out
 * with a key placeholder in place, wherever they sit,
 * and no fewer than the first carried rules found.
 */

const EX = examples.examples;
const placements = {
  inline: (t: string) => `Here it is: ${t} and that was it.`,
  ownLine: (t: string) => `Here it is:\n${t}\nThanks.`,
} as const;

function decodedLines(file: string): Record<string, unknown>[] {
  return execFileSync("zstd", ["-dcq", file], { maxBuffer: 1 << 28 })
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const redacted = (text: string) => text.includes("<key-");

describe("gitleaks' rule examples in a bundle", () => {
  it("are redacted at least 90% of the time inline, on their own line, in tool results and in memories", async () => {
    const base = tempFolder("oda-gitleaks-");
    const home = join(base, "home");
    const logs = join(base, "logs");
    const global = join(home, "memory", "global");
    mkdirSync(global, { recursive: true });
    for (const [name, place] of Object.entries(placements)) {
      const w = createChat(logs, { id: `c-${name}`, cwd: null, created: "2026-11-29T18:00:00.000Z" });
      await w.appendEvents(
        EX.map((e, i) => ({
          type: "message",
          ts: `2026-11-29T18:00:00.${String(i).padStart(3, "0")}Z`,
          role: "user",
          content: [{ type: "text", text: place(e.text) }],
        })),
      );
      await w.close();
    }
    const tool = createChat(logs, { id: "c-tool", cwd: null, created: "2026-11-29T18:00:00.000Z" });
    await tool.appendEvents(
      EX.map((e, i) => ({
        type: "message",
        ts: `2026-11-29T18:00:00.${String(i).padStart(3, "0")}Z`,
        role: "assistant",
        content: [
          { type: "tool_use", id: `t${i}`, name: "read_file", input: { path: "config.env" } },
          { type: "tool_result", tool_use_id: `t${i}`, content: e.text, is_error: false },
        ],
      })),
    );
    await tool.close();
    EX.forEach((e, i) => {
      const id = (0xa0000000 + i).toString(16);
      writeFileSync(
        join(global, id),
        `---\ntitle: Example ${i}\nenabled: true\nsource: user\n---\n\nNotes:\n${e.text}\n`,
      );
    });

    const file = join(base, "b.tar.gz");
    await createBundle({ home, logs }, testScope({ memory: true }), file, { version: "test" });
    const opened = await unpackBundle(file, join(base, "state"));
    const logOf = (id: string) => join(opened.logs, "_no-cwd", id, "session.v4.jsonl.zstd");
    const texts = (id: string, pick: (e: Record<string, unknown>) => string) =>
      decodedLines(logOf(id))
        .filter((e) => e.type === "message")
        .map(pick);
    const textOf = (e: Record<string, unknown>) => ((e.content as { text: string }[])[0] as { text: string }).text;
    const toolOf = (e: Record<string, unknown>) =>
      ((e.content as { content: string }[])[1] as { content: string }).content;
    const memories = readdirSync(join(opened.home, "memory", "global"))
      .sort()
      .map((id) => readFileSync(join(opened.home, "memory", "global", id), "utf8"));
    const found = {
      inline: texts("c-inline", textOf),
      ownLine: texts("c-ownLine", textOf),
      tool: texts("c-tool", toolOf),
      memory: memories,
    };
    const rates: Record<string, number> = {};
    for (const [where, list] of Object.entries(found)) {
      expect(list).toHaveLength(EX.length);
      rates[where] = list.filter(redacted).length / EX.length;
    }
    for (const rate of Object.values(rates)) expect(rate, JSON.stringify(rates)).toBeGreaterThanOrEqual(0.9);
    // And no worse than when the rules were first carried (460 of 463 in chats, 97.6% in memories; now 98.7% there): a faster scan
    // (keywords found by one automaton, rules tried only where their keyword stands) must find as much.
    for (const where of ["inline", "ownLine", "tool"])
      expect(rates[where], JSON.stringify(rates)).toBeGreaterThanOrEqual(0.9935);
    expect(rates.memory, JSON.stringify(rates)).toBeGreaterThanOrEqual(0.976);
  }, 300_000);
});

describe("ordinary prose", () => {
  it("is left alone: versions, hashes, ids, code identifiers and settings names", () => {
    const r = new Redactor({ homes: [], hosts: [], keywords: [] }, new Set(REDACT_KINDS));
    const prose = [
      "Upgrade to version 10.2.3.4 first, then release 2.0.0.1.",
      "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b fixed it",
      "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "chat c-2026-11-29-a1, session 7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21",
      "const token = getAccessTokenFromRefreshTokenAndClientCredentials(request);",
      "key=ValueOfTheDefaultSettingsObject",
      "password: ChangeThisPasswordBeforeProduction",
      "The API returns the token in the Authorization header.",
      "await client.auth.refreshAccessTokenIfExpired();",
    ];
    for (const text of prose) expect(r.redactText(text)).toBe(text);
  });
});
