import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { closeAllIndexes, handleOf } from ".";
import type { Db } from "./db";
import { deferIndexes, indexesDeferred, restoreIndexes } from "./deferred-indexes";

const roots = tempIndexRoots("oda-index-deferred-");

/** The secondary indexes of the chats and usage tables, as the file defines them. */
const indexes = (db: Db) =>
  db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('chats', 'usage') ORDER BY name",
    )
    .all() as { name: string; sql: string }[];

/** Marks the deferred indexes as dropped by `holder` (as a build that died would have left them). */
function heldBy(db: Db, holder: { pid: number; host: string; startedAt: string }): void {
  const value = JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'deferredIndexes'").pluck().get() as string);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'deferredIndexes'").run(JSON.stringify({ ...value, holder }));
}

describe("a bulk build's deferred indexes", () => {
  it("are dropped with their definitions kept, and made again the same", () => {
    const { logs, state } = roots();
    const db = handleOf(state, logs).db;
    const before = indexes(db);
    // The sort orders, the groups', Insights' and usage's: what the upsert kept up to date row by row.
    expect(before.map((i) => i.name)).toEqual(expect.arrayContaining(["chats_by_title", "chats_insights", "usage_q"]));
    deferIndexes(db);
    expect(indexes(db)).toEqual([]);
    expect(indexesDeferred(db)).toBe(true);
    // The upsert's conflict target stays.
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_autoindex_chats_1'").pluck().get()).toBe(
      1,
    );
    // A second build beside the first adds nothing and loses nothing.
    deferIndexes(db);
    restoreIndexes(db);
    expect(indexes(db)).toEqual(before);
    expect(indexesDeferred(db)).toBe(false);
  });

  it("are made again when the file is opened after the build that dropped them died", () => {
    const { logs, state } = roots();
    let db = handleOf(state, logs).db;
    const before = indexes(db);
    deferIndexes(db);
    heldBy(db, { pid: 2 ** 31 - 2, host: hostname(), startedAt: new Date().toISOString() });
    closeAllIndexes();
    db = handleOf(state, logs).db;
    expect(indexes(db)).toEqual(before);
    expect(indexesDeferred(db)).toBe(false);
  });

  it("are left to a build still running when the file is opened beside it", () => {
    const { logs, state } = roots();
    let db = handleOf(state, logs).db;
    const before = indexes(db);
    // This process is the build: alive.
    deferIndexes(db);
    closeAllIndexes();
    db = handleOf(state, logs).db;
    expect(indexes(db)).toEqual([]);
    expect(indexesDeferred(db)).toBe(true);
    restoreIndexes(db);
    expect(indexes(db)).toEqual(before);
  });
});
