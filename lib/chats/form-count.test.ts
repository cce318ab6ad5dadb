import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChat, upgradeToFormat4 } from "../../test-support/chats/writer";
import { countFormRefusals } from "./form-count";

let logs = "";
beforeEach(async () => {
  logs = await mkdtemp(join(tmpdir(), "oda-form-count-"));
});
afterEach(() => rm(logs, { recursive: true, force: true }));

async function chat(id: string, options: { compress?: boolean; format?: number } = {}) {
  const w = createChat(logs, { id, cwd: "/home/ana/reports" }, options);
  await w.appendTurn({ user: "q", assistant: "a", ts: "2026-11-29T18:00:00.000Z" });
  await w.close();
}

describe("countFormRefusals", () => {
  it("counts the chats whose current log is of the other form, reading no log", async () => {
    await chat("c-z1");
    await chat("c-z2");
    await chat("c-plain", { compress: false });
    expect(countFormRefusals(logs, true)).toEqual({ refused: 1, total: 3 });
    expect(countFormRefusals(logs, false)).toEqual({ refused: 2, total: 3 });
  });

  it("judges a chat by its newest format only, as the reader does", async () => {
    await chat("c-old", { format: 1 });
    await upgradeToFormat4(logs, "c-old");
    expect(countFormRefusals(logs, true)).toEqual({ refused: 0, total: 1 });
    expect(countFormRefusals(logs, false)).toEqual({ refused: 1, total: 1 });
  });
});
