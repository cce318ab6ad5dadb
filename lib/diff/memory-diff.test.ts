import { describe, expect, it } from "vitest";
import { diffMemory, diffText, pairSegments } from "./memory-diff";

const kinds = (lines: { kind: string; text: string }[]) => lines.map((l) => `${l.kind[0]} ${l.text}`);

describe("diffText", () => {
  it("keeps equal texts as unchanged lines numbered on both sides", () => {
    const d = diffText("a\nb", "a\nb");
    expect(kinds(d.inline)).toEqual(["s a", "s b"]);
    expect(d.inline[1]).toMatchObject({ oldNo: 2, newNo: 2 });
    expect(d).toMatchObject({ added: 0, removed: 0 });
    expect(d.sideBySide).toHaveLength(2);
  });

  it("lists removed lines before the added lines that replace them, and pairs them side by side", () => {
    const d = diffText("keep\nReply in short bullet points.\nend", "keep\nReply in long bullet lists.\nnew line\nend");
    expect(kinds(d.inline)).toEqual([
      "s keep",
      "r Reply in short bullet points.",
      "a Reply in long bullet lists.",
      "a new line",
      "s end",
    ]);
    expect(d).toMatchObject({ added: 2, removed: 1 });
    const row = d.sideBySide[1];
    expect(row?.left?.text).toBe("Reply in short bullet points.");
    expect(row?.right?.text).toBe("Reply in long bullet lists.");
    expect(d.sideBySide[2]).toMatchObject({ left: null, right: { text: "new line", newNo: 3 } });
    expect(d.sideBySide[3]).toMatchObject({ left: { oldNo: 3 }, right: { newNo: 4 } });
  });

  it("highlights only the changed words inside a paired line", () => {
    const d = diffText("Reply in short bullet points.", "Reply in long bullet points.");
    const removed = d.inline.find((l) => l.kind === "removed");
    const added = d.inline.find((l) => l.kind === "added");
    expect(removed?.segments.filter((s) => s.changed).map((s) => s.text)).toEqual(["short"]);
    expect(added?.segments.filter((s) => s.changed).map((s) => s.text)).toEqual(["long"]);
    expect(added?.segments.map((s) => s.text).join("")).toBe("Reply in long bullet points.");
  });

  it("joins changed words separated only by white space into one highlight", () => {
    const s = pairSegments("Reply in long bullet points.", "Reply in long numbered lists.");
    expect(s.old).toEqual([
      { text: "Reply in long ", changed: false },
      { text: "bullet points", changed: true },
      { text: ".", changed: false },
    ]);
    expect(s.new.filter((x) => x.changed).map((x) => x.text)).toEqual(["numbered lists"]);
  });

  it("does not highlight words of unpaired lines", () => {
    const d = diffText("", "only new");
    expect(kinds(d.inline)).toEqual(["a only new"]);
    expect(d.inline[0]?.segments).toEqual([{ text: "only new", changed: false }]);
    expect(d).toMatchObject({ added: 1, removed: 0 });
  });

  it("treats a missing final newline as no change", () => {
    expect(diffText("a\nb\n", "a\nb").added).toBe(0);
  });

  it("keeps whitespace changes visible", () => {
    const s = pairSegments("a  b", "a b");
    expect(s.old.some((x) => x.changed)).toBe(true);
    expect(s.old.map((x) => x.text).join("")).toBe("a  b");
  });
});

describe("diffMemory", () => {
  it("reports title and enabled changes as fields, old then new", () => {
    const d = diffMemory(
      { title: "Reply language", enabled: true, text: "x" },
      { title: "Answer language", enabled: false, text: "x" },
    );
    expect(d.fields).toEqual([
      { field: "title", old: "Reply language", new: "Answer language" },
      { field: "enabled", old: true, new: false },
    ]);
    expect(d.added + d.removed).toBe(0);
  });

  it("reports no fields when they are equal", () => {
    expect(
      diffMemory({ title: "t", enabled: true, text: "a" }, { title: "t", enabled: true, text: "b" }).fields,
    ).toEqual([]);
  });
});
