import data from "./rules/gitleaks.json" with { type: "json" };

/**
 * Secrets found by gitleaks' published rules (MIT licence, carried as data in
 * `rules/gitleaks.json`, made by `scripts/gitleaks/make-rules.py`), applied as
 * gitleaks applies them: a rule runs only on text holding one of its keywords
 * (case-insensitively), its secret is its secret group (or first non-empty
 * group), one at or under the rule's entropy is skipped, and the global and
 * the rule's allowlists (regexes on the secret, the match or the line; stop
 * words in the secret) let a finding go.
 */

interface Allow {
  target: "secret" | "match" | "line";
  and: boolean;
  regexes: RegExp[];
  stopwords: string[];
}

interface Rule {
  id: string;
  re: RegExp;
  /**
   * For a rule whose match begins with one of its keywords (gitleaks' identifier rules, once their leading
   * `[\w.-]{0,50}?` is dropped): the same pattern, sticky, tried only where a keyword was found instead of
   * at every position of the text.
   */
  atKeyword: RegExp | null;
  entropy: number;
  secretGroup: number;
  keywords: string[];
  allow: Allow[];
}

/** One secret a rule found: the span of the secret itself, and where the whole match begins. */
export interface RuleFinding {
  rule: string;
  start: number;
  end: number;
  from: number;
  value: string;
}

type RawAllow = {
  target: string;
  condition: string;
  regexes: { source: string; unicode: boolean }[];
  stopwords: string[];
};

const compileAllow = (a: RawAllow): Allow => ({
  target: a.target === "match" || a.target === "line" ? a.target : "secret",
  and: a.condition === "AND",
  regexes: a.regexes.map((r) => new RegExp(r.source, r.unicode ? "u" : "")),
  stopwords: a.stopwords,
});

/** Shannon entropy in bits per character, as gitleaks measures a secret. */
export function shannonEntropy(text: string): number {
  if (!text) return 0;
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  const n = [...text].length;
  for (const count of counts.values()) {
    const p = count / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const LEADING_IDENTIFIER = /^\[\\w\.\\-\]\{0,50\}\?/;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function allowed(lists: Allow[], secret: string, match: string, line: string): boolean {
  const lower = secret.toLowerCase();
  for (const a of lists) {
    const target = a.target === "match" ? match : a.target === "line" ? line : secret;
    const byRegex = a.regexes.some((re) => re.test(target));
    const byWord = a.stopwords.some((w) => lower.includes(w));
    if (a.and) {
      const checks = [...(a.regexes.length ? [byRegex] : []), ...(a.stopwords.length ? [byWord] : [])];
      if (checks.length && checks.every(Boolean)) return true;
    } else if (byRegex || byWord) return true;
  }
  return false;
}

/** The line of `text` around `[start, end)`. */
function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf("\n", start - 1) + 1;
  const to = text.indexOf("\n", end);
  return text.slice(from, to < 0 ? text.length : to);
}

/** gitleaks' rules, compiled once per process. */
export class SecretRules {
  private readonly rules: Rule[];
  private readonly global: Allow[];
  private readonly keywords: RegExp;
  private readonly byKeyword = new Map<string, Rule[]>();
  private readonly always: Rule[];
  /** Where the rules come from (repository and commit), for the report. */
  static readonly source = data.source;

  constructor() {
    this.rules = data.rules.map((r) => {
      // gitleaks' `[\w.-]{0,50}?` before an identifier only widens the match to the left, never the secret;
      // tried at every position of a long text it cost most of the scan.
      const source = r.regex.replace(LEADING_IDENTIFIER, "");
      const u = r.unicode ? "u" : "";
      const anchored = source !== r.regex && !hasTopLevelBranch(source) && r.keywords.length > 0;
      return {
        id: r.id,
        re: new RegExp(source, `gd${u}`),
        atKeyword: anchored ? new RegExp(source, `yd${u}`) : null,
        entropy: r.entropy,
        secretGroup: r.secretGroup,
        keywords: r.keywords,
        allow: (r.allowlists as RawAllow[]).map(compileAllow),
      };
    });
    this.global = [compileAllow(data.allowlist as RawAllow)];
    for (const rule of this.rules)
      for (const k of rule.keywords) this.byKeyword.set(k, [...(this.byKeyword.get(k) ?? []), rule]);
    this.always = this.rules.filter((r) => r.keywords.length === 0);
    // One alternation per first letter: a third of the time of one flat alternation of every keyword.
    const groups = new Map<string, string[]>();
    for (const w of [...this.byKeyword.keys()].sort((a, b) => b.length - a.length))
      groups.set(w.charAt(0), [...(groups.get(w.charAt(0)) ?? []), escapeRegExp(w.slice(1))]);
    const source = [...groups].map(([first, rest]) => `${escapeRegExp(first)}(?:${rest.join("|")})`).join("|");
    this.keywords = new RegExp(source, "gi");
  }

  /** Every secret the rules find in `text` (overlaps not yet resolved). */
  find(text: string): RuleFinding[] {
    const run = new Map<Rule, number[]>();
    for (const rule of this.always) run.set(rule, []);
    for (const m of text.matchAll(this.keywords))
      for (const rule of this.byKeyword.get(m[0].toLowerCase()) ?? []) {
        const at = run.get(rule);
        if (at) at.push(m.index);
        else run.set(rule, [m.index]);
      }
    const out: RuleFinding[] = [];
    for (const [rule, at] of run) {
      for (const m of matchesOf(rule, text, at)) {
        if (m[0].length === 0) continue;
        let k = rule.secretGroup;
        if (!(k > 0 && m[k] !== undefined)) {
          k = 0;
          for (let g = 1; g < m.length; g++)
            if (m[g]) {
              k = g;
              break;
            }
        }
        const span = m.indices?.[k];
        if (!span) continue;
        // gitleaks trims the line ends a match ran over
        let [start, end] = span;
        while (start < end && text[start] === "\n") start++;
        while (end > start && text[end - 1] === "\n") end--;
        const secret = text.slice(start, end);
        if (!secret) continue;
        if (rule.entropy && shannonEntropy(secret) <= rule.entropy) continue;
        const match = m[0].replace(/^\n+|\n+$/g, "");
        const from = m.index ?? start;
        const line = lineAround(text, from, from + m[0].length);
        if (allowed(this.global, secret, match, line) || allowed(rule.allow, secret, match, line)) continue;
        out.push({ rule: rule.id, start, end, from, value: secret });
      }
    }
    return out;
  }
}

/** True when `source` is an alternation at its top level (`a|b`, outside every group and class). */
function hasTopLevelBranch(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) return true;
  }
  return false;
}

/** The rule's matches in `text`: everywhere, or (see `Rule.atKeyword`) starting at the keywords found. */
function* matchesOf(rule: Rule, text: string, at: number[]): Generator<RegExpMatchArray> {
  const sticky = rule.atKeyword;
  if (!sticky) {
    yield* text.matchAll(rule.re);
    return;
  }
  let after = 0;
  for (const p of at) {
    if (p < after) continue;
    sticky.lastIndex = p;
    const m = sticky.exec(text);
    if (m && m[0].length > 0) {
      after = p + m[0].length;
      yield m;
    }
  }
}

let shared: SecretRules | null = null;

/** The rules, compiled on first use. */
export function secretRules(): SecretRules {
  shared ??= new SecretRules();
  return shared;
}
