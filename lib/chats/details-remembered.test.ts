import { execFileSync } from "node:child_process";
import { appendFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { encodeName } from "./names";

/** Every full-rule read of a chat's details, counted (the reads themselves unchanged). */
const reads = vi.hoisted(() => ({ n: 0 }));
vi.mock("./chat", async (original) => {
  const chat = await original<typeof import("./chat")>();
  return {
    ...chat,
    summarizeChat: (...args: Parameters<typeof chat.summarizeChat>) => {
      reads.n++;
      return chat.summarizeChat(...args);
    },
  };
});

const CWD = "/home/ana/reports";
/**
 * A big chat's page (`chatDetails` of a log over the read-whole size) takes its details from the listing's
 * memory while the chat's three identities are unchanged: its log, without a checkpoint, is not read whole
 * again at every visit; a change to it is read.
 */
describe("a big chat's details, remembered with its identities", () => {
  it("are read once, served while unchanged, read again after an append, and read each time without a state", async () => {
    const logs = tempDir();
    const state = join(tempDir(), "state");
    const w = createChat(logs, { id: "c-big", cwd: CWD });
    await w.appendTurn({ user: "first question", assistant: "first answer" });
    await w.close();
    const dir = join(logs, `--${encodeName(CWD)}--`, encodeName("c-big"));
    rmSync(join(dir, "session.cache.json"));
    settleFolder(logs);
    const { workerApi, prepareWorker } = await import("./worker-api");
    prepareWorker(state);
    const before = reads.n;
    // A read-whole size of 1 byte: every log takes the big chat's path.
    const first = await workerApi.chatDetails(logs, "c-big", true, 1);
    expect(first.readWhole).toBe(false);
    expect(reads.n).toBe(before + 1);
    const again = await workerApi.chatDetails(logs, "c-big", true, 1);
    expect(reads.n).toBe(before + 1);
    expect(again).toEqual(first);
    expect(again.chat).not.toHaveProperty("verified");
    expect(again.chat).not.toHaveProperty("remembered");
    // Appended: another identity, read again, and the new details shown.
    const log = join(dir, readdirSync(dir).find((n) => n.startsWith("session.v")) as string);
    const line = `${JSON.stringify({ type: "message", ts: "2026-11-30T10:00:00.000Z", role: "user", content: [{ type: "text", text: "more" }] })}\n`;
    appendFileSync(log, execFileSync("zstd", ["-q", "-c"], { input: line }));
    settleFolder(logs);
    const appended = await workerApi.chatDetails(logs, "c-big", true, 1);
    expect(reads.n).toBe(before + 2);
    expect(appended.chat.messages).toBeGreaterThan(first.chat.messages);
    prepareWorker(null);
    await workerApi.chatDetails(logs, "c-big", true, 1);
    await workerApi.chatDetails(logs, "c-big", true, 1);
    expect(reads.n).toBe(before + 4);
  });
});
