import { cpSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listThreadsOf } from "../../cli/context";
import { main } from "../../cli/main";
import { makeHostileFolder } from "../../test-support/chats/hostile-folder";
import { FIXTURES, tempDir } from "../../test-support/chats/test-helpers";
import { leaveDeadLock } from "../../test-support/chats/testing";
import { listAllChats, listChats } from ".";
import { listThreadCount, listThreadFile } from "./list-pool";

/**
 * The chat list on worker threads (`list-pool.ts`) gives exactly what the
 * listing on the calling thread gives, in the same order, batch by batch:
 * every chat of the golden fixtures, a hostile folder (FIFOs, sockets, links
 * leading outside, loops) and a stale lock, through the library and the CLI.
 */

/** Every fixture folder side by side, and the hostile folder beside them, in one log folder. */
async function mixedFolder(): Promise<string> {
  const root = tempDir();
  const { logs } = await makeHostileFolder(root);
  cpSync(join(FIXTURES, "logs"), logs, { recursive: true });
  const chats = (await listAllChats(logs)).chats;
  const withLog = chats.find((c) => c.generations.some((g) => g.current));
  if (withLog) leaveDeadLock(join(logs, withLog.folder));
  return logs;
}

async function batches(logs: string, threads: number) {
  const out = [];
  for await (const batch of listChats(logs, { batchSize: 3, threads })) out.push(batch);
  return out;
}

describe("the chat list on worker threads", () => {
  it("has a thread file to start (the TypeScript source's loader here)", () => {
    expect(listThreadFile()).toMatch(/list-thread\.mjs$/);
  });

  it("lists every chat as the calling thread does, in the same batches and order", async () => {
    const logs = await mixedFolder();
    const alone = await batches(logs, 0);
    const threaded = await batches(logs, 2);
    expect(alone.length).toBeGreaterThan(3);
    expect(threaded).toEqual(alone);
    const problems = alone.flatMap((b) => [...b.problems, ...b.chats.flatMap((c) => c.problems)]);
    // The mix holds what each rule reports: a refused link, a special file, a stale lock.
    expect(problems.map((p) => p.kind)).toEqual(expect.arrayContaining(["link", "special", "lock"]));
  }, 60_000);

  it("prints the same `sessions list --json` document with threads as without", async () => {
    const logs = await mixedFolder();
    // The environment is handed to the CLI's edge, as bin/oda-admin hands it process.env.
    const run = async (threads: string) => {
      const out: string[] = [];
      const code = await main(
        ["sessions", "list", "--json", "--logs", logs],
        { out: (s) => out.push(s), err: () => {} },
        { ODA_ADMIN_LIST_THREADS: threads },
      );
      return { code, doc: JSON.parse(out.join("\n")) };
    };
    const alone = await run("0");
    expect(alone.code).toBe(0);
    expect(await run("2")).toEqual(alone);
  }, 60_000);

  it("starts no thread for a small folder, and as many as asked for when set", () => {
    expect(listThreadCount(10)).toBe(0);
    // The environment is read once, at the CLI's edge: the listing gets the number as an argument.
    expect(listThreadsOf({})).toBeUndefined();
    expect(listThreadsOf({ ODA_ADMIN_LIST_THREADS: "3" })).toBe(3);
    expect(listThreadsOf({ ODA_ADMIN_LIST_THREADS: "99" })).toBe(16);
    expect(listThreadsOf({ ODA_ADMIN_LIST_THREADS: "some" })).toBe(true);
    // Set in this process's environment, it changes nothing below the edge.
    const before = process.env.ODA_ADMIN_LIST_THREADS;
    process.env.ODA_ADMIN_LIST_THREADS = "3";
    try {
      expect(listThreadCount(10)).toBe(0);
    } finally {
      if (before === undefined) delete process.env.ODA_ADMIN_LIST_THREADS;
      else process.env.ODA_ADMIN_LIST_THREADS = before;
    }
  });
});
