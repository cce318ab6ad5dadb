import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { closeAllIndexes, indexStatus, refreshIndex } from "@/lib/index";
import { listAllChats } from "@/lib/sessions";
import { createChat } from "@/lib/sessions/testing";
import { countProblemChats } from "./problem-chats";

/**
 * Home's problem count over a built index, its folder check on the decode
 * worker: the number the folder listing gives, before and after a change,
 * never from the fallback listing (which would log why).
 */

let root: string;
let logs: string;
let state: string;

async function chat(id: string, compress = true): Promise<void> {
  const w = createChat(logs, { id, cwd: "/home/ana/zoo", created: "2026-11-29T18:24:08.123Z" }, { compress });
  await w.appendTurn({ user: `question of ${id}`, assistant: "answer" });
  await w.close();
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-problem-chats-"));
  logs = join(root, "logs");
  state = join(root, "state");
  process.env.ODA_LOG_DIR = logs;
  process.env.ODA_ADMIN_STATE = state;
  for (const id of ["c-a", "c-b"]) await chat(id);
  await refreshIndex(state, logs, { compress: true });
});
afterEach(async () => {
  while ((await indexStatus(state, logs)).job.running) await new Promise((r) => setTimeout(r, 50));
  closeAllIndexes();
  delete process.env.ODA_LOG_DIR;
  delete process.env.ODA_ADMIN_STATE;
  rmSync(root, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe("Home's problem count", () => {
  it("counts from the index with the folder checked on the decode worker, and follows a change", async () => {
    const errors = vi.spyOn(console, "error");
    expect(await countProblemChats()).toBe(0);
    // A plain log under compressed logs: one chat with a problem, found by the worker's check, then counted.
    await chat("c-plain", false);
    const listed = (await listAllChats(logs, { compress: true })).chats.filter((c) => c.problems.length).length;
    expect(listed).toBe(1);
    expect(await countProblemChats()).toBe(1);
    expect(errors).not.toHaveBeenCalled();
  });
});
