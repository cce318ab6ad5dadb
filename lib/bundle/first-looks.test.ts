import { describe, expect, it } from "vitest";
import { type DetectorContext, Detectors, REDACT_KINDS, type RedactKind } from "./detectors";
import { KeywordScanner } from "./keyword-scanner";
import { redactLine } from "./redact-log";
import { Redactor } from "./redactor";

/**
 * The detectors scan each string once (gitleaks' keywords and every kind's
 * first look: `@`, `/home/`, a host name, `.` and a digit, `:` and a hex
 * digit) and run a kind's patterns only where that scan saw what the kind
 * needs. These tests hold `find` to every pattern run everywhere
 * (`findEverywhere`), over strings made to sit on the edges of those looks.
 */

// Pieces that sit on the first looks' edges, run together at random (with and without spaces between).
const PIECES = [
  "10.1.2.3",
  "1.2.3",
  "v1.2.3.4",
  "version 10.2.3.4",
  "999.1.1.1",
  "1.22.333.4444",
  "10.200.100.5",
  "8.8.8.8",
  ".5.6.7",
  "2026-09-21T14:13:20.000Z",
  "18:24:08.123",
  "fe80::1ff:fe23:4567:890a",
  "::1",
  "2001:0DB8:0000:0000:0000:FF00:0042:8329",
  "1:2:3:4:5:6:1.2.3.4",
  "a:b:c:d:",
  "abcd:ef01:2345:",
  "fe80:0000:0000:0000:0204:61ff:fe9d:f156",
  "abcde:1:2:3:",
  '"input_tokens":12,',
  "Ana.L@Example.org",
  "x@y",
  "@",
  "/home/ana/src",
  "/HOME/bob",
  "/Users/Bob/x",
  "C:\\Users\\carl\\docs",
  "c:/users/dee",
  "/root/notes",
  "/ROOT",
  "/rooted",
  "BUILD-box-7",
  "build-box-77",
  "Falcon",
  "fALCON9",
  "café",
  "CAFÉ",
  "Ñandú",
  "risk task",
  "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  "AKIAIOSFODNN7EXAMPLE",
  'api_key = "Zx8Qp4Lm2Rt7Vw9Yk3Hs6Jd1"',
  "token: aB3dE5fG7hJ9kL1mN3pQ5rS7tU9",
  "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  "é",
  "\n",
  "%2Fhome%2Fana",
];

const SEPARATORS = ["", " ", "_", ".", ":", "="];

/** Every piece alone, every two with every separator between, then `count` runs of up to six at random. */
function strings(seed: number, count: number): string[] {
  const out: string[] = [...PIECES];
  for (const a of PIECES) for (const b of PIECES) for (const sep of SEPARATORS) out.push(a + sep + b);
  let x = seed;
  const pick = (n: number) => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x % n;
  };
  for (let i = 0; i < count; i++) {
    let s = "";
    const parts = 1 + pick(6);
    for (let p = 0; p < parts; p++) s += (PIECES[pick(PIECES.length)] as string) + SEPARATORS[pick(6)];
    out.push(s);
  }
  return out;
}

const contexts: [string, DetectorContext][] = [
  ["ASCII words", { homes: ["/root", "/srv/ana"], hosts: ["build-box-7"], keywords: ["Falcon"] }],
  ["words past ASCII", { homes: ["/srv/ñandú"], hosts: ["ñandú-host", "vm"], keywords: ["café", "x@y"] }],
];
const kindSets: [string, Set<RedactKind>][] = [
  ["every kind", new Set<RedactKind>([...REDACT_KINDS, "keyword"])],
  ["ip alone", new Set<RedactKind>(["ip"])],
  ["home and host", new Set<RedactKind>(["home", "host"])],
];

describe("the detectors' first looks", () => {
  for (const [what, ctx] of contexts)
    for (const [which, kinds] of kindSets)
      it(`let nothing through that the patterns find (${what}, ${which})`, () => {
        const d = new Detectors(ctx, kinds);
        let found = 0;
        for (const s of strings(what.length * 31 + which.length, 1000)) {
          const everywhere = d.findEverywhere(s);
          expect(d.find(s), s).toEqual(everywhere);
          // A string of ASCII characters is scanned as its bytes by log lines: the same findings.
          const bytes = Buffer.from(s);
          if (bytes.length === s.length) expect(d.find(s, bytes), s).toEqual(everywhere);
          found += everywhere.length;
        }
        expect(found).toBeGreaterThan(1000);
      });

  it("scan a string's bytes as they scan its characters", () => {
    const scanner = new KeywordScanner(["sk", "token", "@", ".1", "::", "/home/"]);
    const text = "risk ::1 Token @ 10.1.2.3 /HOME/ana task";
    const n = scanner.collect(text);
    const hits = [...scanner.hitWords.subarray(0, n)].map((k, i) => `${k}@${scanner.hitStarts[i]}`);
    expect(scanner.collectBytes(Buffer.from(text))).toBe(n);
    expect([...scanner.hitWords.subarray(0, n)].map((k, i) => `${k}@${scanner.hitStarts[i]}`)).toEqual(hits);
    expect(hits.length).toBe(7);
  });

  it("scan a log line as its bytes only where each byte is one character, and nothing escaped", () => {
    // A redactor each: one that has seen a token finds it anywhere (values learned private).
    const redactor = () => new Redactor({ homes: [], hosts: [], keywords: [] }, new Set<RedactKind>(REDACT_KINDS));
    // GitHub's rule is tried only where its keyword stands (a wrong place finds nothing); Stripe's begins with
    // `\\b`, which the two characters `\\n` of an escaped line end do not give.
    for (const token of ["ghp_0123456789abcdefghijABCDEFGHIJ012345", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"]) {
      const lines = [
        `{"text":"see ${token}"}`,
        // Past ASCII before the token: its bytes stand two places later than its characters.
        `{"text":"déjà vu ${token}"}`,
        // Escaped: the scan reads the line decoded (a line end before the token), never its bytes.
        `{"text":"see\\n${token}"}`,
        `{"text":"\\u00e9 ${token}"}`,
      ];
      for (const line of lines) {
        const out = redactLine(line, redactor(), false, Buffer.from(line));
        expect(out, line).toBe(redactLine(line, redactor(), false));
        expect(out, line).not.toContain(token);
      }
    }
  });
});
