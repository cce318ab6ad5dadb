import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProcessStartTime } from "../fs";
import { listAllChats } from "../sessions";
import { createChat } from "../sessions/testing";
import { countProblemChats, refreshIndex } from ".";
import { tempIndexRoots } from "./test-roots";

const roots = tempIndexRoots("oda-index-count-");

async function writeChat(logs: string, id: string, compress = true) {
  const w = createChat(logs, { id, cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" }, { compress });
  await w.appendTurn({ user: `Question of ${id}`, assistant: "Answer", ts: "2026-11-20T09:01:00.000Z" });
  await w.close();
  return w;
}

/** What the folder listing says, chat by chat: the number the index must give. */
async function listedCount(logs: string, compress: boolean): Promise<number> {
  return (await listAllChats(logs, { compress })).chats.filter((c) => c.problems.length > 0).length;
}

describe("counting the chats with problems from the index", () => {
  it("counts as the folder listing does, and says the index is behind after a chat or the form changed", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "c-1");
    await writeChat(logs, "c-2");
    const plain = await writeChat(logs, "c-plain", false);
    expect(await countProblemChats(state, logs)).toMatchObject({ built: false });
    await refreshIndex(state, logs, { compress: true });
    const first = await countProblemChats(state, logs, { compress: true });
    // The plain log is refused under compressed logs: one chat with problems.
    expect(first).toMatchObject({ built: true, count: 1, freshness: { fresh: true } });
    expect(first.count).toBe(await listedCount(logs, true));

    // The folder's form changed: every count so far judged the other form.
    const otherForm = await countProblemChats(state, logs, { compress: false });
    expect(otherForm.freshness.fresh).toBe(false);
    await refreshIndex(state, logs, { compress: false });
    const plainForm = await countProblemChats(state, logs, { compress: false });
    expect(plainForm).toMatchObject({ count: 2, freshness: { fresh: true } });
    expect(plainForm.count).toBe(await listedCount(logs, false));

    // A chat's log changed (a line that is no JSON): behind until refreshed, then counted.
    appendFileSync(plain.logPath, "not json\n");
    expect((await countProblemChats(state, logs, { compress: false })).freshness.fresh).toBe(false);
    await refreshIndex(state, logs, { compress: false });
    const changed = await countProblemChats(state, logs, { compress: false });
    expect(changed).toMatchObject({ count: await listedCount(logs, false), freshness: { fresh: true } });
  });

  it("judges a lock again: a holder that died after indexing makes a chat with problems, with no refresh", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "c-held");
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      const pid = child.pid as number;
      const started = readProcessStartTime(pid) ?? new Date();
      writeFileSync(
        join(w.dir, "session.lock"),
        `${JSON.stringify({ pid, host: hostname(), startedAt: started.toISOString() })}\n`,
      );
      await refreshIndex(state, logs);
      expect(await countProblemChats(state, logs)).toMatchObject({ count: 0, freshness: { fresh: true } });
    } finally {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
    expect(await countProblemChats(state, logs)).toMatchObject({ count: 1, freshness: { fresh: true } });
    expect(await listedCount(logs, true)).toBe(1);
  });
});
