import { describe, expect, it } from "vitest";
import { KeywordScanner, leadingLiterals } from "./gitleaks";
import data from "./rules/gitleaks.json" with { type: "json" };

/** Every (word, start) of `words` in `text`, ASCII case ignored, by brute force. */
function bruteForce(words: string[], text: string): string[] {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const out: string[] = [];
  words.forEach((w, k) => {
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + 1)) out.push(`${k}@${at}`);
  });
  return out.sort();
}

describe("the keyword scanner", () => {
  it("finds every occurrence of every gitleaks keyword, in either case, overlapping ones too", () => {
    const words = [...new Set(data.rules.flatMap((r) => r.keywords))];
    const scanner = new KeywordScanner(words);
    // Keywords run together, in mixed case, inside words and across non-ASCII text.
    let x = 7;
    const pick = () => {
      x = (x * 1103515245 + 12345) >>> 0;
      return x;
    };
    const parts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const w = scanner.words[pick() % scanner.words.length] as string;
      const cased = [...w].map((c) => (pick() % 2 ? c.toUpperCase() : c)).join("");
      parts.push(["", " ", "é", "_", "risk", "input_tokens", "xo"][pick() % 7] as string, cased);
    }
    const text = parts.join("");
    const found: string[] = [];
    scanner.scan(text, (k, start) => found.push(`${k}@${start}`));
    expect(found.sort()).toEqual(bruteForce(scanner.words, text));
    expect(found.length).toBeGreaterThan(3000);
  });

  it("tells the literal every match of a rule begins with, or that there is none", () => {
    expect(leadingLiterals("\\b((?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z2-7]{16})\\b")).toEqual(["A3T", "AKIA", "ASIA"]);
    expect(leadingLiterals("SK[0-9a-fA-F]{32}")).toEqual(["SK"]);
    expect(leadingLiterals("[dD][oO][rR]_[vV]1_[a-f]{64}")).toEqual(["dor_v1_"]);
    expect(leadingLiterals("(?:https?://)?hooks.slack.com/")).toBeNull();
    expect(leadingLiterals("xox[os]-\\d+")).toEqual(["xox"]);
    expect(leadingLiterals("ab?c")).toEqual(["a"]);
    expect(leadingLiterals("(?:foo|)bar")).toBeNull();
    expect(leadingLiterals("(?=x)y")).toBeNull();
  });
});
