import { isIPv4, isIPv6 } from "node:net";
import { secretRules } from "./gitleaks";
import { KeywordScanner } from "./keyword-scanner";

/**
 * What a support bundle replaces, kind by kind (issue 14, Redaction). Each
 * detector finds spans of one string; `Redactor` turns each distinct value
 * into one stable placeholder.
 */

/** The kinds a person can turn on or off with `--redact`. */
export const REDACT_KINDS = ["home", "host", "email", "ip", "key"] as const;
/** A redaction kind; `keyword` is on whenever a `--keyword` is given. */
export type RedactKind = (typeof REDACT_KINDS)[number] | "keyword";

/** One value found in a string: the span to replace and the value it stands for. */
export interface Found {
  kind: RedactKind;
  start: number;
  end: number;
  /** Where the whole match begins (before `start` when a word or a folder leads to the value). */
  from: number;
  /** The secret itself (for a home folder: the user name), which the placeholder maps to. */
  value: string;
}

/** What the detectors know about this computer: its home folders and host names. */
export interface DetectorContext {
  /** Literal home folders (this machine's `os.homedir()`), replaced whole. */
  homes: string[];
  /** Literal host names (`os.hostname()`, lock files' `host`), case-insensitive. */
  hosts: string[];
  /** `--keyword` words, case-insensitive, wherever they occur. */
  keywords: string[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// The user name after a home root; JSON text doubles Windows backslashes, so one or two are accepted.
const HOME_SHAPE = /(\/home\/|\/Users\/|[A-Za-z]:(?:\\\\|\\|\/)Users(?:\\\\|\\|\/))([^\s/\\"'<>:|*?%]+)/g;
const PLACEHOLDER = /^(?:user-\d+|<[a-z]+-\d+>)$/;
// The local part takes every character RFC 5322 allows unquoted (atext and dots), so no part of an address
// such as `ana+work@…` or `o'neil@…` is left behind; it may not begin with a quote or backtick, which wrap
// addresses in prose and Markdown. `email=ana@…` is replaced whole (`=` is legal): more hidden, never less.
const EMAIL =
  /[A-Za-z0-9!#$%&*+/=?^_{|}~.-][A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const IPV4 = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]*\d)/g;
// A dotted number after `version`, `release` or `v` is a version, not an address ("version 10.2.3.4", "v1.2.3.4").
const VERSION_BEFORE = /(?:\b(?:version|release|ver\.?|build)\s*:?\s*|\bv)$/i;
// A run of hex and colons with a `::` or seven colons, proved by `net.isIPv6`.
const IPV6 = /(?<![\w:.])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*(?![\w:])/g;
// Cheap first looks: a kind's full patterns run only on a string where the one scan of it (`Triggers`) found
// what every match of the kind holds (most log lines hold none). On a 1 GB log these looks were most of a
// bundle's time when each was a search of its own.
const T_KEYWORD = 1;
const T_HOMES = 2;
/** `/home/`, or `users` (of `/Users/` and `C:\Users\`), in either case: every HOME_SHAPE match holds one. */
const T_HOME_SHAPE = 4;
const T_EMAIL = 8;
const T_HOST = 16;
/** `.` and a digit: where `\.\d{1,3}\.\d` may start, which every IPv4 address holds and a timestamp's `01.000Z` does not. */
const T_IPV4 = 32;
/** `::`, or `:` and a hex digit: where `:h{1,4}:h{1,4}:h{1,4}:` may start (an address without `::` has eight groups). */
const T_IPV6 = 64;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** `\.\d{1,3}\.\d` at `at` (a `.`): one to three digits, a dot, a digit. */
function ipv4Hint(text: string, at: number): boolean {
  let i = at + 1;
  while (isDigit(text.charCodeAt(i))) i++;
  const digits = i - at - 1;
  return digits >= 1 && digits <= 3 && text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1));
}

/** `::|:h{1,4}:h{1,4}:h{1,4}:` at `at` (a `:`): a second colon, or three runs of one to four hex digits each ended by one. */
function ipv6Hint(text: string, at: number): boolean {
  let i = at + 1;
  if (text.charCodeAt(i) === 58) return true;
  for (let run = 0; run < 3; run++) {
    const from = i;
    while (isHex(text.charCodeAt(i))) i++;
    if (i === from || i - from > 4 || text.charCodeAt(i) !== 58) return false;
    i++;
  }
  return true;
}

/** An IPv6 address written out whole: eight groups, or six and an IPv4 tail (`1:2:3:4:5:6:1.2.3.4`). */
function allGroups(v: string): boolean {
  const parts = v.split(":");
  return parts.length === ((parts.at(-1) ?? "").includes(".") ? 7 : 8);
}

function push(out: Found[], kind: RedactKind, start: number, end: number, value: string, from = start): void {
  out.push({ kind, start, end, from, value });
}

/** The detectors of one bundle, compiled once: `find` runs on every string of every file. */
export class Detectors {
  private readonly keywords: RegExp | null;
  private readonly homes: RegExp | null;
  private readonly hosts: RegExp | null;
  /** Values learned private so far (see `learn`), and their pattern (rebuilt after a new one). */
  private readonly known = new Map<string, RedactKind>();
  private knownRe: RegExp | null | undefined = null;
  /** One scan of each string for gitleaks' keywords and every kind's first look (the `T_` bits). */
  private readonly scanner: KeywordScanner;
  /** Each scanner word's `T_` bits, and its index among the rules' keywords (or -1). */
  private readonly wordBits: Int32Array;
  private readonly ruleWord: Int32Array;
  /** Bits of the kinds whose words are not all ASCII (the scanner's alphabet): their patterns always run. */
  private readonly always: number;

  constructor(
    ctx: DetectorContext,
    readonly kinds: ReadonlySet<RedactKind>,
  ) {
    const words = ctx.keywords.filter((w) => w.length > 0);
    this.keywords = kinds.has("keyword") && words.length ? new RegExp(words.map(escapeRegExp).join("|"), "gi") : null;
    // Homes shaped like /home/<user> are found by the shape; others (/root, /srv/ana) literally.
    const homes = ctx.homes.filter((h) => h.length > 1 && !new RegExp(HOME_SHAPE.source).test(h));
    this.homes =
      kinds.has("home") && homes.length
        ? new RegExp(`(?:${homes.map(escapeRegExp).join("|")})(?![^\\s/\\\\"'<>])`, "g")
        : null;
    const hosts = ctx.hosts.filter((h) => h.length > 1);
    this.hosts =
      kinds.has("host") && hosts.length
        ? new RegExp(`(?<![A-Za-z0-9-])(?:${hosts.map(escapeRegExp).join("|")})(?![A-Za-z0-9-])`, "gi")
        : null;
    const bits = new Map<string, number>();
    let always = 0;
    const add = (bit: number, list: readonly string[]) => {
      for (const w of list) {
        // A word past ASCII (`é` is found as `É` too): its kind's pattern runs on every string.
        if (/[^\x00-\x7f]/.test(w)) always |= bit;
        else bits.set(w.toLowerCase(), (bits.get(w.toLowerCase()) ?? 0) | bit);
      }
    };
    if (this.keywords) add(T_KEYWORD, words);
    if (this.homes) add(T_HOMES, homes);
    if (this.hosts) add(T_HOST, hosts);
    if (kinds.has("home")) add(T_HOME_SHAPE, ["/home/", "users"]);
    if (kinds.has("email")) add(T_EMAIL, ["@"]);
    if (kinds.has("ip")) {
      add(
        T_IPV4,
        [..."0123456789"].map((d) => `.${d}`),
      );
      add(
        T_IPV6,
        [..."0123456789abcdef:"].map((h) => `:${h}`),
      );
    }
    const rules = kinds.has("key") ? secretRules().words : [];
    this.scanner = new KeywordScanner([...rules, ...bits.keys()]);
    const ruleIndex = new Map(rules.map((w, i) => [w, i]));
    this.wordBits = Int32Array.from(this.scanner.words, (w) => bits.get(w) ?? 0);
    this.ruleWord = Int32Array.from(this.scanner.words, (w) => ruleIndex.get(w) ?? -1);
    this.always = always;
  }

  /**
   * Every span of `text` that an enabled kind replaces, earliest first, overlaps resolved. `bytes`: the text's
   * own bytes, one a character (`KeywordScanner.collectBytes`), scanned in its place.
   */
  find(text: string, bytes?: Uint8Array): Found[] {
    const n = bytes ? this.scanner.collectBytes(bytes) : this.scanner.collect(text);
    const { hitWords, hitStarts } = this.scanner;
    let seen = this.always;
    for (let h = 0; h < n; h++) {
      const bit = this.wordBits[hitWords[h] as number] as number;
      if (bit === T_IPV4) {
        if (!(seen & T_IPV4) && ipv4Hint(text, hitStarts[h] as number)) seen |= T_IPV4;
      } else if (bit === T_IPV6) {
        if (!(seen & T_IPV6) && ipv6Hint(text, hitStarts[h] as number)) seen |= T_IPV6;
      } else seen |= bit;
    }
    return this.findWith(text, seen, n);
  }

  /** `find` with every kind's patterns run, whatever the first looks say (what `find` must equal: the tests). */
  findEverywhere(text: string): Found[] {
    return this.findWith(text, -1, -1);
  }

  /** The patterns of the kinds in `seen` run on `text`; `n` the scanner's hits in it (-1: the rules scan it). */
  private findWith(text: string, seen: number, n: number): Found[] {
    const found: Found[] = [];
    const { kinds, scanner } = this;
    if (this.keywords && seen & T_KEYWORD)
      for (const m of text.matchAll(this.keywords))
        push(found, "keyword", m.index, m.index + m[0].length, m[0].toLowerCase());
    if (this.homes && seen & T_HOMES)
      for (const m of text.matchAll(this.homes)) push(found, "home", m.index, m.index + m[0].length, m[0]);
    if (kinds.has("home") && seen & T_HOME_SHAPE) {
      for (const m of text.matchAll(HOME_SHAPE)) {
        if (PLACEHOLDER.test(m[2] as string)) continue; // already redacted
        const start = m.index + (m[1] as string).length;
        push(found, "home", start, start + (m[2] as string).length, m[2] as string, m.index);
      }
    }
    if (kinds.has("email") && seen & T_EMAIL)
      for (const m of text.matchAll(EMAIL)) push(found, "email", m.index, m.index + m[0].length, m[0].toLowerCase());
    // Keys, tokens and passwords: gitleaks' published rules (gitleaks.ts), never a list of our own.
    if (kinds.has("key")) {
      const rules = secretRules();
      const keys = n < 0 ? rules.find(text) : rules.findAt(text, scanner.hitWords, scanner.hitStarts, n, this.ruleWord);
      for (const f of keys) push(found, "key", f.start, f.end, f.value, f.from);
    }
    const ip = kinds.has("ip");
    if (ip && seen & T_IPV4)
      for (const m of text.matchAll(IPV4))
        if (isIPv4(m[0]) && !VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index)))
          push(found, "ip", m.index, m.index + m[0].length, m[0]);
    if (ip && seen & T_IPV6) {
      for (const m of text.matchAll(IPV6)) {
        const v = m[0];
        if (/[0-9A-Fa-f]/.test(v) && (v.includes("::") || allGroups(v)) && isIPv6(v))
          push(found, "ip", m.index, m.index + v.length, v.toLowerCase());
      }
    }
    if (this.hosts && seen & T_HOST)
      for (const m of text.matchAll(this.hosts))
        push(found, "host", m.index, m.index + m[0].length, m[0].toLowerCase());
    const known = this.knownPattern();
    if (known)
      for (const m of text.matchAll(known)) {
        const hit = this.known.get(m[0]) ?? this.known.get(m[0].toLowerCase());
        if (hit) push(found, hit, m.index, m.index + m[0].length, hit === "key" ? m[0] : m[0].toLowerCase());
      }
    return found.length > 1 ? resolveOverlaps(found) : found;
  }

  /**
   * Learns a value found private (a key, an e-mail, an address): from now on it is found wherever it stands,
   * also where no rule would find it by itself (a key without the word that gave it away), as `sos clean`
   * does with what it learns. A user name is not learned: it is private in a home path only.
   */
  learn(kind: RedactKind, value: string): void {
    if (kind === "home" || kind === "keyword" || value.length < 4 || this.known.has(value)) return;
    this.known.set(value, kind);
    this.knownRe = undefined;
  }

  private knownPattern(): RegExp | null {
    if (this.knownRe !== undefined) return this.knownRe;
    const values = [...this.known.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    // Whole values only: the same characters inside a longer word or value are something else.
    this.knownRe = values.length ? new RegExp(`(?<![\\w-])(?:${values.join("|")})(?![\\w-])`, "gi") : null;
    return this.knownRe;
  }
}

/** Keeps the earliest, then longest, span of any overlapping group. */
function resolveOverlaps(found: Found[]): Found[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Found[] = [];
  let end = -1;
  for (const f of found) {
    if (f.start < end) continue;
    out.push(f);
    end = f.end;
  }
  return out;
}
