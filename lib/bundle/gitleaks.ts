import { KeywordScanner } from "./keyword-scanner";
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
  private readonly keywords: KeywordScanner;
  /** The rules of each of the scanner's words, by its index. */
  private readonly keywordRules: Rule[][];
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
      // Also a rule whose every match begins with one of its keywords (`\bghp_…`, `(?:AKIA|ASIA…)…`): its
      // keyword's places are the only places a match can start, so it is tried there alone.
      const anchored =
        r.keywords.length > 0 &&
        !hasTopLevelBranch(source) &&
        (source !== r.regex || startsWithKeyword(source, r.keywords));
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
    this.keywords = new KeywordScanner([...this.byKeyword.keys()]);
    this.keywordRules = this.keywords.words.map((w) => this.byKeyword.get(w) ?? []);
  }

  /** The rules' keywords, lower-case, as `findAt` numbers them. */
  get words(): readonly string[] {
    return this.keywords.words;
  }

  /** Every secret the rules find in `text` (overlaps not yet resolved). */
  find(text: string): RuleFinding[] {
    const n = this.keywords.collect(text);
    return this.findAt(text, this.keywords.hitWords, this.keywords.hitStarts, n, null);
  }

  /**
   * `find`, given where the keywords stand in `text` (`KeywordScanner.collect`'s first `n` hits): a bundle's
   * detectors scan each string once for every kind. `wordOf` maps a hit's word to the rules' (`words`), or -1.
   */
  findAt(text: string, words: Int32Array, starts: Int32Array, n: number, wordOf: Int32Array | null): RuleFinding[] {
    if (n === 0 && this.always.length === 0) return [];
    const run = new Map<Rule, number[]>();
    for (const rule of this.always) run.set(rule, []);
    for (let h = 0; h < n; h++) {
      const word = wordOf ? (wordOf[words[h] as number] as number) : (words[h] as number);
      if (word < 0) continue;
      const start = starts[h] as number;
      for (const rule of this.keywordRules[word] as Rule[]) {
        const at = run.get(rule);
        if (at) at.push(start);
        else run.set(rule, [start]);
      }
    }
    if (run.size === 0) return [];
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
function matchesOf(rule: Rule, text: string, at: number[]): RegExpExecArray[] {
  const sticky = rule.atKeyword;
  if (!sticky) return [...text.matchAll(rule.re)];
  const out: RegExpExecArray[] = [];
  let after = 0;
  // Keywords are reported by where they end: two that overlap (`hvs.`, `s.`) can come out of order.
  if (at.length > 1) at.sort((a, b) => a - b);
  for (const p of at) {
    if (p < after) continue;
    sticky.lastIndex = p;
    const m = sticky.exec(text);
    if (m && m[0].length > 0) {
      after = p + m[0].length;
      out.push(m);
    }
  }
  return out;
}

let shared: SecretRules | null = null;

/** The rules, compiled on first use. */
export function secretRules(): SecretRules {
  shared ??= new SecretRules();
  return shared;
}

/**
 * The literal texts every match of a regex source must begin with (one per
 * alternative of its leading groups), or null when a match could begin with
 * anything else: a class, an optional part, a lookaround. Zero-width `\b`s
 * before them are passed over (a sticky match at the keyword still checks them).
 */
export function leadingLiterals(src: string): string[] | null {
  let i = 0;
  while (src.startsWith("\\b", i)) i += 2;
  if (src[i] === "(") {
    if (src[i + 1] === "?" && src[i + 2] !== ":") return null;
    const inner = i + (src[i + 1] === "?" ? 3 : 1);
    const alts: string[] = [];
    let depth = 0;
    let inClass = false;
    let from = inner;
    let j = inner;
    for (; j < src.length; j++) {
      const c = src[j];
      if (c === "\\") j++;
      else if (inClass) inClass = c !== "]";
      else if (c === "[") inClass = true;
      else if (c === "(") depth++;
      else if (c === ")") {
        if (depth === 0) break;
        depth--;
      } else if (c === "|" && depth === 0) {
        alts.push(src.slice(from, j));
        from = j + 1;
      }
    }
    if (j >= src.length) return null;
    alts.push(src.slice(from, j));
    const q = src[j + 1];
    if (q === "?" || q === "*" || src.startsWith("{0", j + 1)) return null;
    const out: string[] = [];
    for (const alt of alts) {
      const lits = leadingLiterals(alt);
      if (!lits) return null;
      out.push(...lits);
    }
    return out;
  }
  let lit = "";
  while (i < src.length) {
    let c = src[i] as string;
    let len = 1;
    // `[aA]`: one letter in either case (the rules are case-sensitive; keywords are found in either case)
    const pair = /^\[([a-zA-Z])([a-zA-Z])\]/.exec(src.slice(i, i + 4));
    if (pair && (pair[1] as string).toLowerCase() === (pair[2] as string).toLowerCase()) {
      c = (pair[1] as string).toLowerCase();
      len = 4;
    } else if (c === "\\") {
      const e = src[i + 1] ?? "";
      if (!/[.\-/_~$^*+?()[\]{}|\\=:@#]/.test(e)) break;
      c = e;
      len = 2;
    } else if (/[.[\](){}?*+|^$]/.test(c)) break;
    const q = src[i + len];
    if (q === "?" || q === "*" || src.startsWith("{0", i + len)) break;
    lit += c;
    i += len;
    if (q === "+" || q === "{") break;
  }
  return lit ? [lit] : null;
}

/** True when every match of `source` begins with one of `keywords` (ASCII case ignored). */
function startsWithKeyword(source: string, keywords: string[]): boolean {
  const lits = leadingLiterals(source);
  return !!lits && lits.every((l) => keywords.some((k) => l.toLowerCase().startsWith(k.toLowerCase())));
}

export { KeywordScanner } from "./keyword-scanner";
