import { describe, expect, it } from "vitest";
import type { ChatRow } from "@/lib/types";
import { groupRows, heldItems, type ListItem, type ListItems, placesIn, sortRows, windowItems } from "./list-view";

/** A row with what grouping and sorting read. */
function row(id: string, group: string, lastActivity: string, tokens = 0): ChatRow {
  return {
    id,
    title: null,
    folder: `${group}/${id}`,
    group,
    cwd: `/w/${group}`,
    created: null,
    lastActivity,
    messages: 1,
    tokens,
    format: 4,
    compressed: true,
    generations: [],
    lock: { state: "none", pid: null, host: null, startedAt: null, reason: "" },
    cached: false,
    cacheState: "none",
    cacheReason: "",
    behindBytes: 0,
    problems: [],
  } as unknown as ChatRow;
}

const keyOf = (item: ListItem | undefined) =>
  item?.type === "group" ? `g:${item.group}` : item?.type === "chat" ? `c:${item.row.id}` : `p:${item?.group}`;

/** Every item, made one by one as the table asks for them. */
const all = (items: ListItems) => Array.from({ length: items.length }, (_, i) => items.at(i));

describe("the chat list read a window at a time", () => {
  const a1 = row("a1", "a", "2026-11-30T10:00:00.000Z");
  const b1 = row("b1", "b", "2026-11-30T09:00:00.000Z");
  const groups = [
    { group: "a", label: "/w/a", count: 2 },
    { group: "b", label: "/w/b", count: 1 },
  ];

  it("lays out every group's heading and places from the counts, each place its row once read", () => {
    const read = new Map([
      [0, a1],
      [2, b1],
    ]);
    const items = windowItems(3, groups, (place) => read.get(place));
    expect(all(items).map(keyOf)).toEqual(["g:a", "c:a1", "p:a", "g:b", "c:b1"]);
    // The place not read yet keeps its place in the list, so a row read later moves nothing below it.
    expect(items.at(2)).toMatchObject({ type: "pending", place: 1 });
    expect(all(windowItems(3, null, (place) => read.get(place))).map(keyOf)).toEqual(["c:a1", "p:", "c:b1"]);
    expect(items.at(5)).toBeUndefined();
  });

  it("makes each item where it is asked for, as laying out every place at once would, with unique keys", () => {
    // Groups of 0 to 6 places (a filter can leave a heading with few), some places read, some not.
    const counts = [3, 1, 6, 2, 1, 5, 4];
    const many = counts.map((count, i) => ({ group: `g${i}`, label: `/w/g${i}`, count }));
    const shown = counts.reduce((a, b) => a + b, 0);
    const rows = new Map<number, ChatRow>();
    for (let p = 0; p < shown; p += 2) rows.set(p, row(`c${p}`, "x", "2026-11-30T10:00:00.000Z"));
    const expected: ListItem[] = [];
    let place = 0;
    for (const g of many) {
      expected.push({ type: "group", ...g });
      for (let slot = 0; slot < g.count; slot++, place++) {
        const r = rows.get(place);
        expected.push(r ? { type: "chat", row: r, place } : { type: "pending", group: g.group, slot, place });
      }
    }
    for (const grouping of [many, null]) {
      const items = windowItems(shown, grouping, (p) => rows.get(p));
      const flat = grouping ? expected : expected.filter((e) => e.type !== "group");
      const want = grouping ? flat : flat.map((e) => (e.type === "pending" ? { ...e, group: "", slot: e.place } : e));
      expect(all(items)).toEqual(want);
      // Out of order too (a jump to the end, a key back up): the same item at each index.
      for (const i of [...want.keys()].reverse()) expect(items.at(i)).toEqual(want[i]);
      for (const i of [9, 0, 17, 3, 25, 1]) expect(items.at(i)).toEqual(want[i]);
      const keys = all(items).map((_, i) => items.keyAt(i));
      expect(new Set(keys).size).toBe(items.length);
      expect(all(items).map((_, i) => items.isGroup(i))).toEqual(want.map((e) => e.type === "group"));
    }
  });

  it("names the places drawn, headings aside, for the windows to read", () => {
    const items = windowItems(3, groups, () => undefined);
    expect(placesIn(items, 0, 4)).toEqual({ first: 0, last: 2 });
    expect(placesIn(items, 3, 4)).toEqual({ first: 2, last: 2 });
    expect(placesIn(items, 0, 0)).toBeNull();
    expect(placesIn(items, 2, 99)).toEqual({ first: 1, last: 2 });
  });
});

describe("groupRows", () => {
  it("puts the rows under a heading per working folder, A to Z and _no-cwd last, each with its count", () => {
    const none = { ...row("n1", "_no-cwd", "2026-11-30T11:00:00.000Z"), cwd: null };
    const rows = [none, row("b1", "b", "2026-11-30T10:00:00.000Z"), row("a1", "a", "2026-11-30T09:00:00.000Z")];
    const items = groupRows(rows, true);
    expect(all(heldItems(items)).map(keyOf)).toEqual(["g:a", "c:a1", "g:b", "c:b1", "g:_no-cwd", "c:n1"]);
    expect(items.at(-2)).toMatchObject({ label: "_no-cwd (no working folder)", count: 1 });
    expect(groupRows(rows, false).map(keyOf)).toEqual(["c:n1", "c:b1", "c:a1"]);
  });
});

describe("sortRows", () => {
  it("sorts by the key worked out once, ties by id, the other direction the list reversed (as the index reads it)", () => {
    const rows = [
      row("c", "a", "2026-11-30T10:00:00.000Z", 5),
      row("a", "a", "2026-11-30T10:00:00.000Z", 9),
      row("b", "a", "2026-11-29T10:00:00.000Z", 9),
    ];
    expect(sortRows(rows, { key: "lastActivity", dir: "desc" }).map((r) => r.id)).toEqual(["a", "c", "b"]);
    expect(sortRows(rows, { key: "tokens", dir: "desc" }).map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(sortRows(rows, { key: "tokens", dir: "asc" }).map((r) => r.id)).toEqual(["c", "b", "a"]);
    expect(sortRows(rows, { key: "lastActivity", dir: "asc" }).map((r) => r.id)).toEqual(["b", "c", "a"]);
  });
});
