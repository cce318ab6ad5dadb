import { describe, expect, it } from "vitest";
import type { ChatRow } from "@/lib/types";
import { type GroupLayout, groupRows, type ListItem, NO_FILTERS, shownRows, sortRows } from "./list-view";

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

describe("the chat list streamed in the index's order, grouped", () => {
  // The index's order: newest activity first. Group a's second chat comes after group b's first.
  const a1 = row("a1", "a", "2026-11-30T10:00:00.000Z");
  const b1 = row("b1", "b", "2026-11-30T09:00:00.000Z");
  const a2 = row("a2", "a", "2026-11-30T08:00:00.000Z");
  const layout: GroupLayout = [
    { group: "b", cwd: "/w/b", count: 1 },
    { group: "a", cwd: "/w/a", count: 2 },
  ];

  it("keeps every heading and row where the first batch put it while the rest arrives", () => {
    const steps = [[a1], [a1, b1], [a1, b1, a2]].map((rows) => groupRows(rows, true, layout));
    const at = (items: ListItem[], key: string) => items.findIndex((i) => keyOf(i) === key);
    for (const items of steps) {
      expect(items).toHaveLength(5);
      expect(at(items, "g:a")).toBe(0);
      expect(at(items, "c:a1")).toBe(1);
      expect(at(items, "g:b")).toBe(3);
    }
    // b1 takes its place under b at once, and a2 the place kept for it under a.
    expect(at(steps[1] as ListItem[], "c:b1")).toBe(4);
    expect(at(steps[2] as ListItem[], "c:a2")).toBe(2);
    expect((steps[0] as ListItem[]).map((i) => i.type)).toEqual(["group", "chat", "pending", "group", "pending"]);
  });

  it("without the index's layout, a row arriving in an earlier group pushes the later ones down", () => {
    const before = groupRows([a1, b1], true);
    const after = groupRows([a1, b1, a2], true);
    expect(before.findIndex((i) => keyOf(i) === "c:b1")).not.toBe(after.findIndex((i) => keyOf(i) === "c:b1"));
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

describe("the rows the table shows", () => {
  const rows = [row("c-b", "g", "2026-11-02T00:00:00Z", 1), row("c-a", "g", "2026-11-01T00:00:00Z", 5)];
  const newest = { key: "lastActivity", dir: "desc" } as const;
  const tokens = { key: "tokens", dir: "desc" } as const;
  const ids = (list: ChatRow[]) => list.map((r) => r.id);

  it("keeps the server's order when it is the one chosen", () => {
    expect(ids(shownRows(rows, NO_FILTERS, newest, { order: newest, inOrder: true }))).toEqual(["c-b", "c-a"]);
  });

  it("does not sort rows of another order at the click that asks the server for the new one", () => {
    // They are replaced by the new order's first rows the moment after: sorting them here was wasted.
    expect(ids(shownRows(rows, NO_FILTERS, tokens, { order: newest, inOrder: true }))).toEqual(["c-b", "c-a"]);
  });

  it("sorts the folder's rows, and the server's once the folder check changed some", () => {
    expect(ids(shownRows(rows, NO_FILTERS, tokens, { order: null, inOrder: false }))).toEqual(["c-a", "c-b"]);
    expect(ids(shownRows(rows, NO_FILTERS, tokens, { order: tokens, inOrder: false }))).toEqual(["c-a", "c-b"]);
  });
});
