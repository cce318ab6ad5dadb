import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChat } from "@/lib/sessions";
import { detailsFor } from "./chat-inspector";

let logs: string;
beforeEach(async () => {
  logs = mkdtempSync(join(tmpdir(), "oda-inspector-"));
  process.env.ODA_LOG_DIR = logs;
  const writer = createChat(logs, { id: "c-1", cwd: "/w", created: "2026-11-29T18:24:08.123Z" });
  for (let i = 0; i < 3; i++) {
    await writer.appendTurn({ user: `question ${i}`, assistant: `answer ${i}`, ts: "2026-11-29T18:25:00.000Z" });
  }
  await writer.close();
});
afterEach(() => {
  delete process.env.ODA_LOG_DIR;
  rmSync(logs, { recursive: true, force: true });
});

describe("the inspector's details", () => {
  it("reads an ordinary log whole: lines and decompressed size are known", async () => {
    const d = await detailsFor("c-1");
    expect(d).toMatchObject({ readWhole: true, messages: 6, lines: 10, title: "question 0" });
    expect(d.decompressedBytes).toBeGreaterThan(0);
  });

  it("serves a huge log's details from its checkpoint, leaving the line count to the viewer", async () => {
    const d = await detailsFor("c-1", { readWholeMaxBytes: 10 });
    expect(d).toMatchObject({
      readWhole: false,
      messages: 6,
      cacheState: "cached",
      lines: null,
      decompressedBytes: null,
    });
  });
});
