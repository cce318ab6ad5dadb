import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createChat } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { handleOf, refreshIndex, searchChats } from ".";
import { indexesDeferred } from "./deferred-indexes";
import { decodeBlock } from "./text-codec";
import { readDictionary, readTexts } from "./texts";

const roots = tempIndexRoots("oda-index-dictionary-");

const WORDS = 'budget report deploy server query table invoice customer backup folder 🎉 "quoted" naïve'.split(" ");

/** `chats` short chats of a few sentences each, all in one save (quick to make); returns their texts. */
async function shortChats(logs: string, chats: number): Promise<string[]> {
  const texts: string[] = [];
  for (let c = 0; c < chats; c++) {
    const w = createChat(logs, { id: `c-${c}`, cwd: null, created: "2026-11-20T09:00:00.000Z" });
    const say = (n: number) => Array.from({ length: 12 }, (_, k) => WORDS[(c * 7 + n * 3 + k * k) % WORDS.length]);
    const lines = [0, 1, 2].flatMap((t) => [
      { type: "message", ts: "2026-11-20T09:01:00.000Z", role: "user", content: `${say(t).join(" ")} chat${c}?` },
      { type: "message", ts: "2026-11-20T09:01:01.000Z", role: "assistant", content: say(t + 5).join(" ") },
    ]);
    texts.push(...lines.map((l) => l.content));
    await w.writeSave(await w.encodeSave(lines.map((l) => JSON.stringify(l))), null);
    await w.close();
  }
  return texts;
}

type Found = Awaited<ReturnType<typeof searchChats>>;
/**
 * A search's chats by id. Chats read on a reader thread, a few at a time, get their index ids in the order
 * they finish, and a page of results follows those ids: the two indexes may page different chats, but each
 * chat both show must show the same.
 */
const byId = (r: Found) => new Map(r.groups.map((g) => [g.id, g]));

describe("small text blocks", () => {
  it("are compressed with a dictionary the build makes from its first entries, and read back the same", async () => {
    const { logs, state } = roots();
    const written = await shortChats(logs, 60);
    const other = roots();
    await refreshIndex(state, logs, { threads: 0 });
    // On a reader thread, which is sent the dictionary while it reads.
    await refreshIndex(other.state, logs, { threads: 1 });
    for (const s of [state, other.state]) {
      const db = handleOf(s, logs).db;
      const dictionary = readDictionary(db);
      expect(dictionary?.length).toBe(8192);
      const blocks = db.prepare("SELECT id, data FROM texts ORDER BY id").all() as { id: number; data: Buffer }[];
      const tagged = blocks.filter((b) => b.data[0] === 1);
      // The first chats' blocks were written before there was a dictionary; most after.
      expect(tagged.length).toBeGreaterThan(blocks.length / 3);
      let withDictionary = 0;
      let plain = 0;
      for (const b of tagged) {
        const json = decodeBlock(b.data, () => dictionary);
        withDictionary += b.data.length;
        plain += deflateRawSync(json, { level: 5 }).length + 1;
      }
      expect(withDictionary).toBeLessThan(plain * 0.8);
      // Every entry's text back, for every block of either kind.
      const ids = db.prepare("SELECT id FROM entries ORDER BY id").pluck().all() as number[];
      const texts = readTexts(db, ids);
      expect([...texts.values()].sort()).toEqual([...written].sort());
    }
    for (const query of ["budget", "chat59", "🎉", '"quoted"', "naive"]) {
      const here = await searchChats(state, logs, { query });
      const there = await searchChats(other.state, logs, { query });
      expect(here.groups.length).toBe(there.groups.length);
      const theirs = byId(there);
      let both = 0;
      for (const [id, group] of byId(here)) {
        if (!theirs.has(id)) continue;
        both++;
        expect(group).toEqual(theirs.get(id));
      }
      expect(both).toBeGreaterThan(0);
    }
  });
});

describe("a full build", () => {
  it("gives back the pages its final merge freed", async () => {
    const { logs, state } = roots();
    // Enough chats for a bulk build (merges deferred to one at the end), written in several transactions.
    await shortChats(logs, 1100);
    const indexes = (s: string) =>
      handleOf(s, logs).db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all();
    // A new file's indexes, before any chat is in it.
    const fresh = indexes(roots().state);
    const deferred: boolean[] = [];
    const result = await refreshIndex(state, logs, {
      threads: 0,
      onProgress: (done) => {
        if (done === 550) deferred.push(indexesDeferred(handleOf(state, logs).db));
      },
    });
    expect(result.added).toBe(1100);
    const db = handleOf(state, logs).db;
    expect(db.pragma("auto_vacuum", { simple: true })).toBe(2);
    expect(db.pragma("freelist_count", { simple: true })).toBe(0);
    // The chats' secondary indexes were made once at the end (deferred-indexes.ts), and every one is there.
    expect(deferred).toEqual([true]);
    expect(indexes(state)).toEqual(fresh);
    expect(indexesDeferred(db)).toBe(false);
  });
});
