import { describe, expect, it } from "vitest";
import type { ChatRow } from "@/lib/types";
import { groupRows, type ListItem, placesIn, sortRows, windowItems } from "./list-view";

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

const keyOf = (item: ListItem) =>
  item.type === "group" ? `g:${item.group}` : item.type === "chat" ? `c:${item.row.id}` : `p:${item.group}`;

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
    expect(items.map(keyOf)).toEqual(["g:a", "c:a1", "p:a", "g:b", "c:b1"]);
    // The place not read yet keeps its place in the list, so a row read later moves nothing below it.
    expect(items[2]).toMatchObject({ type: "pending", place: 1 });
    expect(windowItems(3, null, (place) => read.get(place)).map(keyOf)).toEqual(["c:a1", "p:", "c:b1"]);
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
    expect(items.map(keyOf)).toEqual(["g:a", "c:a1", "g:b", "c:b1", "g:_no-cwd", "c:n1"]);
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
