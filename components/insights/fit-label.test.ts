import { describe, expect, it } from "vitest";
import { fitLabel } from "./fit-label";

/** One unit per code point: a monospace font. */
const mono = (s: string) => Array.from(s).length;

describe("fitLabel", () => {
  it("keeps a label whole when it fits, however long", () => {
    expect(fitLabel("gpt-4o-mini-2026-09", 19, mono)).toBe("gpt-4o-mini-2026-09");
    expect(fitLabel("/home/ana/research/Übersetzungen", 40, mono)).toBe("/home/ana/research/Übersetzungen");
  });

  it("cuts in the middle only when needed, keeping its start and its end", () => {
    expect(fitLabel("gpt-4o-mini-2026-09", 11, mono)).toBe("gpt-4…26-09");
    expect(fitLabel("/home/ana/Übersetzungen", 15, mono)).toBe("/home/a…tzungen");
    for (let room = 2; room < 23; room++) expect(mono(fitLabel("/home/ana/Übersetzungen", room, mono))).toBe(room);
  });

  it("never splits a character made of two UTF-16 units, and gives an ellipsis when nothing fits", () => {
    const label = "📁📁📁📁📁📁📁📁";
    const cut = fitLabel(label, 5, mono);
    expect(cut).toBe("📁📁…📁📁");
    expect(Array.from(cut).every((c) => c === "📁" || c === "…")).toBe(true);
    expect(fitLabel("anything", 0, mono)).toBe("…");
  });

  it("uses the widths it is given (a proportional font)", () => {
    const wide = (s: string) => Array.from(s).reduce((n, c) => n + (c === "W" ? 3 : 1), 0);
    expect(fitLabel("WWWWabcd", 7, wide)).toBe("W…d"); // "WW…cd" would take 9
    expect(fitLabel("abcdWWWW", 7, wide)).toBe("ab…W");
  });
});
