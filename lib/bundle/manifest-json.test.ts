import { describe, expect, it } from "vitest";
import { BUNDLE_FORMAT, type Manifest } from "./manifest";
import { manifestJson } from "./manifest-json";

/** A manifest listing `n` files, each kind naming every other one, with names JSON must escape. */
function manifestOf(n: number, kinds: string[]): Manifest {
  const files = Array.from({ length: n }, (_, i) => ({
    path: `logs/--%2Fhome%2Fuser-1%2Fp-${i % 7}--/c-${i} "q" \\ é\t/session.v4.jsonl.zstd`,
    size: i * 1013,
    sha256: (i % 16).toString(16).repeat(64),
  }));
  return {
    bundleFormat: BUNDLE_FORMAT,
    odaAdminVersion: "1.2.3",
    createdAt: "2026-12-03T06:00:00.000Z",
    scope: { chats: "all", since: null, memory: true, redact: kinds, keywords: 0, dropText: false },
    counts: {
      files: n,
      bytes: 1,
      chats: n,
      memories: 0,
      redactedFiles: n,
      replaced: { home: n },
      problems: 0,
      leftOut: 1,
    },
    files,
    redaction: {
      keyRules: "gitleaks x at y",
      kinds: kinds.map((kind, k) => ({
        kind,
        values: 1,
        replacements: n,
        files: files.filter((_, i) => i % (k + 1) === 0 && k < 2).map((f) => f.path),
      })),
    },
    leftOut: [{ path: "logs/x", reason: "gone", message: "Gone." }],
  };
}

const expected = (m: Manifest) => Buffer.from(`${JSON.stringify(m, null, 2)}\n`);

describe("manifest.json written list by list", () => {
  it("is byte for byte JSON.stringify(manifest, null, 2), across batches, empty lists and escapes", () => {
    for (const n of [0, 1, 999, 1000, 2501]) {
      const m = manifestOf(n, ["email", "home", "ip"]);
      expect(manifestJson(m).equals(expected(m)), `${n} files`).toBe(true);
    }
    const bare = manifestOf(3, []);
    delete bare.redaction;
    delete bare.leftOut;
    expect(manifestJson(bare).equals(expected(bare))).toBe(true);
  });

  it("lists only a staged file's path, size and hash", () => {
    const m = manifestOf(1200, ["home"]);
    const staged = {
      ...m,
      files: m.files.map((f) => ({ ...f, from: { file: "/tmp/spool", start: 3 }, redacted: true })),
    };
    expect(manifestJson(staged).equals(expected(m))).toBe(true);
  });
});
