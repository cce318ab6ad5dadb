import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChat } from "@/test-support/chats/testing";
import { liveContext } from "../source/context";
import { detailsFor, linesFor } from "./chat-inspector";

/** The live source over the test's log folder, as the edge of a request makes it. */
const live = () => liveContext({ home: null, logs, state: null, demo: false });

let logs: string;
beforeEach(async () => {
  logs = mkdtempSync(join(tmpdir(), "oda-inspector-"));
  const writer = createChat(logs, { id: "c-1", cwd: "/w", created: "2026-11-29T18:24:08.123Z" });
  for (let i = 0; i < 3; i++) {
    await writer.appendTurn({ user: `question ${i}`, assistant: `answer ${i}`, ts: "2026-11-29T18:25:00.000Z" });
  }
  await writer.close();
});
afterEach(() => {
  rmSync(logs, { recursive: true, force: true });
});

describe("the inspector's details", () => {
  it("reads an ordinary log whole: lines and decompressed size are known", async () => {
    const d = await detailsFor(live(), "c-1");
    expect(d).toMatchObject({ readWhole: true, messages: 6, lines: 10, title: "question 0" });
    expect(d.decompressedBytes).toBeGreaterThan(0);
  });

  it("serves a huge log's details from its checkpoint, leaving the line count to the viewer", async () => {
    const d = await detailsFor(live(), "c-1", { readWholeMaxBytes: 10 });
    expect(d).toMatchObject({
      readWhole: false,
      messages: 6,
      cacheState: "cached",
      lines: null,
      decompressedBytes: null,
    });
  });
});

describe("the inspector on a zstd bomb", () => {
  it("reads it on the decode worker: another chat answers first, then the bomb's problem with where it stopped", async () => {
    const dir = join(logs, "_no-cwd", "c-bomb");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "session.jsonl.zstd");
    execFileSync("sh", [
      "-c",
      `{ echo '{"time":"2026-11-29T18:24:08.123Z","role":"user","text":"hi"}'; yes '' | head -c 200M; } | zstd -q -3 -c > '${path}'`,
    ]);
    const order: string[] = [];
    const bomb = detailsFor(live(), "c-bomb").then((d) => {
      order.push("bomb");
      return d;
    });
    const other = await linesFor(live(), "c-1", 1, 2);
    order.push("other");
    expect(other.lines.map((l) => l.n)).toEqual([1, 2]);
    const d = await bomb;
    expect(order).toEqual(["other", "bomb"]);
    expect(d.title).toBe("hi");
    expect(d.problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /decodes to more than 1000 times its compressed size .* reading stopped at byte \d+ of the file \(decoded byte \d+\); every line before it is kept\. raw log: /,
        ),
      ]),
    );
  }, 120_000);
});
