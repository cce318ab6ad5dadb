import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeName, encodeName, logFileName, parseGroupName, parseLogName } from "./names";

describe("encodeName / decodeName", () => {
  it("encodes every byte outside A-Z a-z 0-9 . _ - as upper-case %XX", () => {
    expect(encodeName("/home/ana/reports")).toBe("%2Fhome%2Fana%2Freports");
    expect(encodeName("c-2026-11-29-a1")).toBe("c-2026-11-29-a1");
    expect(encodeName("a b")).toBe("a%20b");
    expect(encodeName("é")).toBe("%C3%A9");
    expect(encodeName("x.y_z-1")).toBe("x.y_z-1");
  });

  it("encodes the dots of an all-dots string", () => {
    expect(encodeName(".")).toBe("%2E");
    expect(encodeName("..")).toBe("%2E%2E");
    expect(encodeName("a..")).toBe("a..");
  });

  it("refuses names that do not decode cleanly", () => {
    for (const bad of ["", "..", ".", "a%2fb", "a%2", "a%zz", "a b", "%41", "%C3", "%FF", "a/b"]) {
      expect(decodeName(bad)).toBeNull();
    }
  });

  it("round-trips any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (s) => {
        expect(decodeName(encodeName(s))).toBe(s);
      }),
    );
  });

  it("decodes only what encodeName would write", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._%-]{1,12}$/), (name) => {
        const value = decodeName(name);
        if (value !== null) expect(encodeName(value)).toBe(name);
      }),
    );
  });
});

describe("groups and log names", () => {
  it("reads --<working folder>-- and _no-cwd", () => {
    expect(parseGroupName("--%2Fhome%2Fana--")).toEqual({ cwd: "/home/ana" });
    expect(parseGroupName("_no-cwd")).toEqual({ cwd: null });
    expect(parseGroupName("--%2fhome--")).toBeNull();
    expect(parseGroupName("home")).toBeNull();
    expect(parseGroupName("----")).toBeNull();
  });

  it("accepts exactly session.jsonl and session.v<N>.jsonl (N ≥ 2, no leading zero), with .zstd", () => {
    expect(parseLogName("session.jsonl")).toEqual({ name: "session.jsonl", format: 1, compressed: false });
    expect(parseLogName("session.jsonl.zstd")).toEqual({ name: "session.jsonl.zstd", format: 1, compressed: true });
    expect(parseLogName("session.v4.jsonl.zstd")?.format).toBe(4);
    expect(parseLogName("session.v12.jsonl")?.format).toBe(12);
    for (const bad of [
      "session.v1.jsonl",
      "session.v04.jsonl",
      "session.v1.backup.jsonl",
      "session.jsonl.zst",
      "Session.jsonl",
      "session.v4.jsonl.zstd.bak",
      "session.json",
    ]) {
      expect(parseLogName(bad)).toBeNull();
    }
    expect(logFileName(4, true)).toBe("session.v4.jsonl.zstd");
    expect(logFileName(1, false)).toBe("session.jsonl");
  });
});
