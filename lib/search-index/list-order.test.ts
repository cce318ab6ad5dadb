import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { CHAT_SORT_KEYS, type ChatSort, type ChatSortKey } from "../chats/views";
import { closeAllIndexes, openIndex } from ".";
import { SORT_COLUMNS } from "./list-order";
import { IndexRows } from "./list-rows";
import { SCHEMA } from "./schema";

/**
 * The chat list's orders as the index reads them (`list-order.ts`, `list-rows.ts`): every column, both
 * directions, against the order the page sorts by (first direction with ties by id A to Z, the other the
 * same list reversed), read in pages whose boundaries fall inside runs of ties, each chat once; each page a
 * seek in its column's index (no sort of the chats).
 */

afterEach(() => closeAllIndexes());

interface Chat {
  id: string;
  title: string | null;
  cwd: string | null;
  last: string | null;
  messages: number;
  input: number;
  output: number;
  format: number | null;
  lock: string;
  problems: number;
}

/** 60 chats whose values come from small sets: long runs of ties in every column, and every column's NULL. */
function chats(): Chat[] {
  const out: Chat[] = [];
  let seed = 7;
  const pick = <T>(xs: T[]): T => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return xs[seed % xs.length] as T;
  };
  for (let i = 0; i < 60; i++) {
    out.push({
      id: `c-${pick(["q", "b", "x", "a"])}-${String(i).padStart(2, "0")}`,
      title: pick([null, "Alpha", "alpha", "beta", "Gamma"]),
      cwd: pick([null, "/home/ana", "/home/bo", "/srv/x"]),
      last: pick([null, "2026-11-29T10:00:00.000Z", "2026-11-30T09:00:00.000Z", "2026-11-30T09:00:00.500Z"]),
      messages: pick([0, 2, 6, 6, 11]),
      input: pick([0, 5, 10]),
      output: pick([0, 5, 15]),
      format: pick([null, 3, 4, 4]),
      lock: pick(["none", "none", "live", "stale", "unknown"]),
      problems: pick([0, 0, 1, 2]),
    });
  }
  return out;
}

/** The chat's summary in the index's compact form: only what differs from the defaults. */
function summaryOf(c: Chat): string {
  const rest: Record<string, unknown> = {};
  if (c.input) rest.inputTokens = c.input;
  if (c.output) rest.outputTokens = c.output;
  if (c.lock !== "none") rest.lock = { state: c.lock, reason: "r" };
  if (c.problems) rest.problems = Array.from({ length: c.problems }, () => ({ kind: "form", message: "m" }));
  return `~${JSON.stringify(rest)}`;
}

function indexOf(list: Chat[]): Database.Database {
  const db = new Database(":memory:");
  db.exec(SCHEMA);
  const put = db.prepare(
    `INSERT INTO chats (id, folder, cwd, title, last_activity, messages, problems, source, fingerprint, format, summary, indexed_at)
     VALUES (?, ?, ?, ?, ?, ?, 0, 'log', 'f', ?, ?, 'now')`,
  );
  for (const c of list) put.run(c.id, `g/${c.id}`, c.cwd, c.title, c.last, c.messages, c.format, summaryOf(c));
  return db;
}

const LOCK_RANK: Record<string, number> = { none: 0, unknown: 1, live: 2, stale: 3 };

/** What the page sorts a chat by (`components/chats/list-view.ts` `value`). */
function sortValue(c: Chat, key: ChatSortKey): string | number {
  switch (key) {
    case "title":
      return (c.title ?? c.id).toLowerCase();
    case "folder":
      return c.cwd ?? "";
    case "lastActivity":
      return c.last ?? "";
    case "messages":
      return c.messages;
    case "tokens":
      return c.input + c.output;
    case "format":
      return c.format ?? 0;
    case "lock":
      return LOCK_RANK[c.lock] ?? 0;
    case "problems":
      return c.problems;
  }
}

/** The expected order: the column's first direction, ties by id A to Z; the other direction reversed. */
function expected(list: Chat[], order: ChatSort): string[] {
  const first = SORT_COLUMNS[order.key].first;
  const sign = first === "asc" ? 1 : -1;
  const sorted = [...list].sort((a, b) => {
    const x = sortValue(a, order.key);
    const y = sortValue(b, order.key);
    if (x !== y) return x < y ? -sign : sign;
    return a.id < b.id ? -1 : 1;
  });
  if (order.dir !== first) sorted.reverse();
  return sorted.map((c) => c.id);
}

const ORDERS: ChatSort[] = CHAT_SORT_KEYS.flatMap((key) => [
  { key, dir: "asc" as const },
  { key, dir: "desc" as const },
]);

describe("the chat list's orders from the index", () => {
  const list = chats();
  const db = indexOf(list);

  it.each(ORDERS)("$key $dir: every chat once, in the page's order, ties by id, across pages", (order) => {
    const want = expected(list, order);
    // Pages of 3, then 4: boundaries fall inside runs of ties (a value shared by a dozen chats).
    const rows = new IndexRows(db, 3, order);
    const got: string[] = [];
    for (let at = 0, size = 3; at < rows.count; at += size, size = 4)
      got.push(...rows.at(at, at + size).map((r) => r.id));
    expect(got).toEqual(want);
    expect(new Set(got).size).toBe(list.length);
    // Read at once, and read again from the start: the same order.
    expect(new IndexRows(db, 200, order).at(0, list.length).map((r) => r.id)).toEqual(want);
  });

  it.each(ORDERS)("$key $dir: each page is a seek in the column's index, no sort, no OFFSET", (order) => {
    // The statements the pages run, caught on their way to SQLite and explained.
    const asked: string[] = [];
    const spy = new Proxy(db, {
      get: (target, name) =>
        name === "prepare"
          ? (sql: string) => {
              asked.push(sql);
              return target.prepare(sql);
            }
          : Reflect.get(target, name, target),
    });
    const rows = new IndexRows(spy, 3, order);
    for (let at = 3; at < rows.count; at += 4) rows.at(at, at + 4);
    const paging = asked.filter((q) => q.includes(`${SORT_COLUMNS[order.key].sql} AS key`));
    expect(paging.length).toBeGreaterThan(2);
    for (const q of new Set(paging)) {
      expect(q).not.toMatch(/OFFSET/i);
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${q}`).all(
          ...q
            .split("?")
            .slice(1)
            .map(() => 1),
        ) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join("; ");
      expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${SORT_COLUMNS[order.key].index}\\b`));
      expect(plan).not.toContain("TEMP B-TREE");
    }
  });
});

describe("an index built before the sort indexes", () => {
  it("gains them when it is opened, keeping its chats (no rebuild)", () => {
    const state = tempFolder("oda-list-order-");
    const logs = join(state, "logs");
    const handle = openIndex(state, logs);
    handle.db.prepare("INSERT INTO meta(key, value) VALUES ('marker', 'kept')").run();
    for (const c of Object.values(SORT_COLUMNS)) handle.db.exec(`DROP INDEX ${c.index}`);
    handle.db.exec("DROP INDEX chats_by_group");
    handle.db.exec("CREATE INDEX chats_list ON chats(last_activity DESC, id)");
    closeAllIndexes();
    const again = openIndex(state, logs);
    const names = (again.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all() as string[])
      .filter((n) => n.startsWith("chats_by_") || n === "chats_list")
      .sort();
    // The sort indexes and the groups' index (`indexedGroups`).
    expect(names).toEqual([...Object.values(SORT_COLUMNS).map((c) => c.index), "chats_by_group"].sort());
    expect(again.setAside).toBeNull();
    expect(again.db.prepare("SELECT value FROM meta WHERE key = 'marker'").pluck().get()).toBe("kept");
  });
});
