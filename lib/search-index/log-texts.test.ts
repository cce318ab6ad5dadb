import { execFileSync } from "node:child_process";
import { copyFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createChat, openChat } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { closeAllIndexes, handleOf, refreshIndex, searchChats } from ".";
import { readTexts } from "./texts";

const roots = tempIndexRoots("oda-index-log-texts-");

const TS = "2026-11-20T09:01:00.000Z";

/** The lines searched for: a long text around the word, a tool call beside a message, a format-1-like line. */
function needles(tag: string): string[] {
  const filler = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
  return [
    {
      type: "message",
      ts: TS,
      role: "user",
      content: [{ type: "text", text: `${filler} ${tag} in the middle ${filler}` }],
    },
    {
      type: "message",
      ts: TS,
      role: "assistant",
      content: [
        { type: "text", text: `short ${tag} answer` },
        { type: "tool_use", id: "t1", name: "grep", input: { pattern: `${tag} tool`, path: "/srv" } },
      ],
    },
    { type: "memory", ts: TS, mode: "note", text: `remember the ${tag} 🎉 always` },
    { type: "custom", ts: TS, note: `an unknown event with ${tag}` },
  ].map((l) => JSON.stringify(l));
}

/** Words from a fixed generator: text that compresses like a chat's, not like a repeated phrase. */
function words(seed: number, n: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push((x % 50_000).toString(36));
  }
  return out.join(" ");
}

/** About `mib` MiB of filler turns, saved 256 KiB a save (one frame each when compressed). */
function fillerSaves(mib: number, from: number): string[][] {
  const saves: string[][] = [];
  let save: string[] = [];
  let bytes = 0;
  for (let t = from; bytes < mib * 1024 * 1024; t++) {
    const line = JSON.stringify({
      type: "message",
      ts: TS,
      role: t % 2 ? "assistant" : "user",
      content: `turn ${t} ${words(t, 100)}`,
    });
    save.push(line);
    bytes += line.length + 1;
    if (save.length * line.length >= 256 * 1024) {
      saves.push(save);
      save = [];
    }
  }
  if (save.length) saves.push(save);
  return saves;
}

/** A chat with the needle lines deep in a large log (`deep`), or in a small one. */
async function writeChat(logs: string, id: string, deep: boolean, compress = true) {
  const w = createChat(logs, { id, cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" }, { compress });
  const saves = deep ? fillerSaves(6, 0) : [];
  saves.push(needles("zebracorn"));
  if (deep) saves.push(...fillerSaves(1, 100_000));
  for (const save of saves) await w.writeSave(await w.encodeSave(save), null);
  await w.close();
  return w;
}

/** What a search shows, without where each hit is (its line differs between a deep and a small chat). */
async function shown(state: string, logs: string, query: string) {
  const r = await searchChats(state, logs, { query, perChat: 10 });
  return r.groups.flatMap((c) => c.hits.map((h) => ({ role: h.role, ts: h.ts, snippet: h.snippet })));
}

describe("entries deep in a large log", () => {
  for (const compress of [true, false]) {
    it(`keep no stored text and show the snippets stored text gave (${compress ? "zstd" : "plain"})`, async () => {
      const big = roots();
      await writeChat(big.logs, "deep", true, compress);
      await refreshIndex(big.state, big.logs, { compress, threads: 0 });
      const small = roots();
      await writeChat(small.logs, "small", false, compress);
      await refreshIndex(small.state, small.logs, { compress, threads: 0 });

      const db = handleOf(big.state, big.logs).db;
      // Seek points past the first MiBs, and the entries there in no block (the first 4 MiB keep theirs).
      expect(db.prepare("SELECT count(*) FROM seeks").pluck().get()).toBeGreaterThan(2);
      const ids = db.prepare("SELECT id FROM entries").pluck().all() as number[];
      const inBlocks = readTexts(db, ids).size;
      expect(inBlocks).toBeGreaterThan(ids.length * 0.4);
      expect(inBlocks).toBeLessThan(ids.length * 0.7);

      for (const query of ["zebracorn", '"the zebracorn"', "zebracorn AND tool", "middle"]) {
        const want = await shown(small.state, small.logs, query);
        expect(want.length).toBeGreaterThan(0);
        expect(await shown(big.state, big.logs, query)).toEqual(want);
      }
      // Over the same connection again (the snippet table kept): the same.
      expect(await shown(big.state, big.logs, "zebracorn")).toEqual(await shown(small.state, small.logs, "zebracorn"));
    });
  }

  it("read back what was appended after the index last read the log (seek points from where it resumed)", async () => {
    const { logs, state } = roots();
    const w = createChat(logs, { id: "grows", cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" });
    for (const save of fillerSaves(5, 0)) await w.writeSave(await w.encodeSave(save), null);
    await w.close();
    await refreshIndex(state, logs, { threads: 0 });
    const again = await openChat(logs, "grows");
    for (const save of [...fillerSaves(1, 50_000), needles("zebracorn")])
      await again.writeSave(await again.encodeSave(save), null);
    await again.close();
    expect(await refreshIndex(state, logs, { threads: 0 })).toMatchObject({ appended: 1 });
    const small = roots();
    await writeChat(small.logs, "small", false);
    await refreshIndex(small.state, small.logs, { threads: 0 });
    const want = await shown(small.state, small.logs, "zebracorn");
    expect(want.length).toBe(5);
    expect(await shown(state, logs, "zebracorn")).toEqual(want);
  });

  it("are read back right when another search replaces the snippet table meanwhile", async () => {
    const { logs, state } = roots();
    await writeChat(logs, "deep", true);
    await refreshIndex(state, logs, { threads: 0 });
    const alone = await shown(state, logs, "zebracorn");
    expect(alone.length).toBe(5);
    // A fresh connection's table, holding a first page of another search.
    closeAllIndexes();
    await searchChats(state, logs, { query: "lorem OR turn" });
    // The first reads the log; the second, run meanwhile, shows more entries than the table keeps and makes a new one.
    const [deep, many] = await Promise.all([
      shown(state, logs, "zebracorn"),
      searchChats(state, logs, { query: "turn", perChat: 600 }),
    ]);
    expect(many.groups[0]?.hits.length).toBe(600);
    expect(deep).toEqual(alone);
  });

  it("are not read through a link put in the log's place", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "deep", true);
    await refreshIndex(state, logs, { threads: 0 });
    renameSync(w.logPath, `${w.logPath}.moved`);
    symlinkSync(`${w.logPath}.moved`, w.logPath);
    expect(await shown(state, logs, "zebracorn")).toEqual([]);
  });

  it("show no text once the log is not the indexed file, and nothing blocks on a FIFO in its place", async () => {
    const { logs, state } = roots();
    const w = await writeChat(logs, "deep", true);
    await refreshIndex(state, logs, { threads: 0 });
    expect((await shown(state, logs, "zebracorn")).length).toBe(5);

    // The same bytes under another inode (a repair's replacement, say): not read until the index is refreshed.
    copyFileSync(w.logPath, `${w.logPath}.copy`);
    renameSync(`${w.logPath}.copy`, w.logPath);
    handleOf(state, logs).db.prepare("INSERT INTO meta (key, value) VALUES ('touch', '1')").run();
    expect(await shown(state, logs, "zebracorn")).toEqual([]);
    await refreshIndex(state, logs, { threads: 0 });
    expect((await shown(state, logs, "zebracorn")).length).toBe(5);

    rmSync(w.logPath);
    execFileSync("mkfifo", [w.logPath]);
    handleOf(state, logs).db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('touch', '2')").run();
    expect(await shown(state, logs, "zebracorn")).toEqual([]);
    rmSync(w.logPath);
    handleOf(state, logs).db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('touch', '3')").run();
    expect(await shown(state, logs, "zebracorn")).toEqual([]);
  });
});
