import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import {
  CACHE_FILE,
  decodeName,
  encodeName,
  groupName,
  LOCK_FILE,
  logFileName,
  parseGroupName,
  parseLogName,
} from "./names";

describe("encodeName / decodeName", () => {
  it("encodes every byte outside A-Z a-z 0-9 . _ - as upper-case %XX", () => {
    expect(encodeName("/home/ana/reports")).toBe("%2Fhome%2Fana%2Freports");
    expect(encodeName("c-2026-11-29-a1")).toBe("c-2026-11-29-a1");
    expect(encodeName("a b")).toBe("a%20b");
    expect(encodeName("é")).toBe("%C3%A9");
    expect(encodeName("x.y_z-1")).toBe("x.y_z-1");
  });

  it("encodes all printable ASCII, alone and together, as the contract's table says", () => {
    // Written out by hand from the rule (A-Z a-z 0-9 . _ - kept, every other byte %XX upper-case).
    const printable =
      " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
    const encoded =
      "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C-.%2F0123456789%3A%3B%3C%3D%3E%3F%40ABCDEFGHIJKLMNOPQRSTUVWXYZ" +
      "%5B%5C%5D%5E_%60abcdefghijklmnopqrstuvwxyz%7B%7C%7D%7E";
    expect(printable).toHaveLength(95);
    expect(encodeName(printable)).toBe(encoded);
    expect(decodeName(encoded)).toBe(printable);
    const kept = /^[A-Za-z0-9._-]$/;
    for (const ch of printable) {
      const hex = `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
      const alone = ch === "." ? "%2E" : kept.test(ch) ? ch : hex;
      expect(encodeName(ch)).toBe(alone);
      expect(encodeName(`a${ch}b`)).toBe(`a${kept.test(ch) ? ch : hex}b`);
      expect(encodeName(`a ${ch}`)).toBe(`a%20${kept.test(ch) ? ch : hex}`);
      expect(decodeName(`a${ch}b`)).toBe(kept.test(ch) ? `a${ch}b` : null);
    }
  });

  it("encodes the dots of an all-dots string", () => {
    expect(encodeName(".")).toBe("%2E");
    expect(encodeName("..")).toBe("%2E%2E");
    expect(encodeName("a..")).toBe("a..");
  });

  it("pads control bytes to two hex digits, and decodes dots inside or at an end of a plain name", () => {
    expect(encodeName("a\tb\n\u0001\u007f")).toBe("a%09b%0A%01%7F");
    expect(decodeName("a%09b%0A%01%7F")).toBe("a\tb\n\u0001\u007f");
    for (const plain of ["a..", ".a", "..a", "a.b", "a."]) expect(decodeName(plain)).toBe(plain);
    expect(decodeName("%2E%2E")).toBe("..");
    expect(decodeName("%2E")).toBe(".");
  });

  it("refuses names that do not decode cleanly", () => {
    for (const bad of ["", "..", ".", "a%2fb", "a%2", "a%zz", "a b", "%41", "%C3", "%FF", "a/b"]) {
      expect(decodeName(bad)).toBeNull();
    }
  });

  it.each(fuzzSeeds(7007))("round-trips any string ($label seed $seed)", ({ seed }) => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1 }), (s) => {
        expect(decodeName(encodeName(s))).toBe(s);
      }),
      { seed },
    );
  });

  it.each(fuzzSeeds(7008))("decodes only what encodeName would write ($label seed $seed)", ({ seed }) => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9._%-]{1,12}$/), (name) => {
        const value = decodeName(name);
        if (value !== null) expect(encodeName(value)).toBe(name);
      }),
      { seed },
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
    expect(parseGroupName("-----")).toEqual({ cwd: "-" });
    expect(parseGroupName("--a--")).toEqual({ cwd: "a" });
    for (const bad of ["x-a--", "--a-x", "-a--", "--a-", "a----", "----a"]) expect(parseGroupName(bad)).toBeNull();
    expect(groupName(null)).toBe("_no-cwd");
    expect(groupName("")).toBe("_no-cwd");
    expect(groupName("/srv/a b")).toBe("--%2Fsrv%2Fa%20b--");
  });

  it("accepts exactly session.jsonl and session.v<N>.jsonl (N ≥ 2, no leading zero), with .zstd", () => {
    expect(parseLogName("session.jsonl")).toEqual({ name: "session.jsonl", format: 1, compressed: false });
    expect(parseLogName("session.jsonl.zstd")).toEqual({ name: "session.jsonl.zstd", format: 1, compressed: true });
    expect(parseLogName("session.v4.jsonl.zstd")?.format).toBe(4);
    expect(parseLogName("session.v12.jsonl")?.format).toBe(12);
    expect(parseLogName("session.v2.jsonl")).toEqual({ name: "session.v2.jsonl", format: 2, compressed: false });
    for (const bad of [
      "session.v1.jsonl",
      "session.v04.jsonl",
      "session.v1.backup.jsonl",
      "session.jsonl.zst",
      "Session.jsonl",
      "session.v4.jsonl.zstd.bak",
      "session.json",
      "xsession.jsonl",
      "old.session.v4.jsonl.zstd",
    ]) {
      expect(parseLogName(bad)).toBeNull();
    }
    expect(logFileName(4, true)).toBe("session.v4.jsonl.zstd");
    expect([LOCK_FILE, CACHE_FILE]).toEqual(["session.lock", "session.cache.json"]);
    expect(logFileName(1, false)).toBe("session.jsonl");
  });
});
