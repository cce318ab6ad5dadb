import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testScope } from "../../test-support/bundle/test-scope";
import { plantProblems, SECRETS } from "../../test-support/bundle/testing";
import { createChat } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { createBundle, prepareBundle } from "./create";
import { unpackBundle } from "./unpack";

/**
 * Each log is read once (issue 26): the doctor report and the secret scan of a
 * bundle come from one decode of each log. `onDecode` is called each time a
 * log is read through (the doctor's read, a redaction's read); every log of
 * the folder must be counted exactly once.
 */

/** Digits and spaces: about 1 MB on disk per 2.4 MB of text, and nothing any rule finds. */
function digits(seed: number, chars: number): string {
  let x = seed * 2654435761 + 1;
  let out = "";
  while (out.length < chars) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += `${x % 1000000} `;
  }
  return out;
}

/** Every log file under `dir`. */
function logsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }))
    if (/session\.v\d+\.jsonl(?:\.zstd)?$/.test(name)) out.push(join(dir, name));
  return out.sort();
}

/** A chat of `saves` saves (one zstd frame each) of 50 lines, over 1 MB on disk; `secretAt`: the save with a key. */
async function bigChat(logs: string, id: string, saves: number, secretAt: number | null): Promise<void> {
  const w = createChat(logs, { id, cwd: null, created: "2026-11-29T18:00:00.000Z" });
  for (let s = 0; s < saves; s++)
    await w.appendEvents(
      Array.from({ length: 50 }, (_, j) => ({
        type: "message",
        ts: `2026-11-29T18:${String(s % 60).padStart(2, "0")}:00.000Z`,
        role: "user",
        content: [
          {
            type: "text",
            text: s === secretAt && j === 25 ? `the key is ${SECRETS.github} now` : digits(s * 100 + j, 2000),
          },
        ],
      })),
    );
  await w.close();
}

const counter = () => {
  const decodes = new Map<string, number>();
  return { decodes, onDecode: (path: string) => decodes.set(path, (decodes.get(path) ?? 0) + 1) };
};

describe("a bundle reads each log once", () => {
  it("for the doctor report and the redaction together, small logs and large, with and without a secret", async () => {
    const base = tempFolder("oda-read-once-");
    const roots = await plantProblems(base);
    await bigChat(roots.logs, "c-big-secret", 30, 17);
    await bigChat(roots.logs, "c-big-clean", 30, null);
    const big = join(roots.logs, "_no-cwd", "c-big-secret", "session.v4.jsonl.zstd");
    expect(statSync(big).size).toBeGreaterThan(1024 * 1024);
    const logs = logsUnder(roots.logs);
    expect(logs.length).toBeGreaterThan(8);

    const { decodes, onDecode } = counter();
    const file = join(base, "b.tar.gz");
    const made = await createBundle(roots, testScope({ memory: true }), file, { version: "test", onDecode });
    for (const log of logs) expect(decodes.get(log) ?? 0, log).toBe(1);
    expect([...decodes.keys()].sort()).toEqual(logs);

    // The large log with a key in its 18th save: its 17 saves before it went in as they were (their frames
    // copied), the key was replaced, and it reads as the same lines.
    const opened = await unpackBundle(made.file, join(base, "state"));
    const out = join(opened.logs, "_no-cwd", "c-big-secret", "session.v4.jsonl.zstd");
    const before = execFileSync("zstd", ["-dcq", big], { maxBuffer: 1 << 28 }).toString("utf8");
    const after = execFileSync("zstd", ["-dcq", out], { maxBuffer: 1 << 28 }).toString("utf8");
    expect(after).not.toContain(SECRETS.github);
    expect(after.split("\n").length).toBe(before.split("\n").length);
    expect(after.replace(/<key-\d+>/, SECRETS.github)).toBe(before);
    // The clean large log went in byte for byte.
    const clean = made.manifest.files.find((f) => f.path.endsWith("c-big-clean/session.v4.jsonl.zstd"));
    expect(clean?.size).toBe(statSync(join(roots.logs, "_no-cwd", "c-big-clean", "session.v4.jsonl.zstd")).size);
  }, 120_000);

  it("in the preview too", async () => {
    const base = tempFolder("oda-read-once-");
    const roots = await plantProblems(base);
    const { decodes, onDecode } = counter();
    const preview = await prepareBundle(roots, testScope({ memory: true }), null, { version: "test", onDecode });
    preview.dispose();
    const logs = logsUnder(roots.logs);
    for (const log of logs) expect(decodes.get(log) ?? 0, log).toBe(1);
    expect(preview.manifest.counts.replaced.email).toBeGreaterThan(0);
  });
});
