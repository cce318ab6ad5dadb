import { isIPv4, isIPv6 } from "node:net";
import { secretRules } from "./gitleaks";

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
// Cheap first looks: a kind's full patterns run only on text that passes its filter (most log lines pass none).
// Each passes everything its kind can find. Literal searches and patterns that begin with a literal are
// fast; on a 1 GB log these looks were most of a bundle's time.
const hasHome = (t: string) => t.includes("/home/") || t.includes("Users");
// Digits around two dots: a timestamp's `01.000Z` (on every log line) does not pass, any IPv4 address does.
const IPV4_HINT = /\.\d{1,3}\.\d/;
// `::`, or three groups between colons (an address without `::` has eight groups); not a time of day.
const IPV6_HINT = /::|:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:/;
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
  }

  /** Every span of `text` that an enabled kind replaces, earliest first, overlaps resolved. */
  find(text: string): Found[] {
    const found: Found[] = [];
    const { kinds } = this;
    if (this.keywords)
      for (const m of text.matchAll(this.keywords))
        push(found, "keyword", m.index, m.index + m[0].length, m[0].toLowerCase());
    if (this.homes)
      for (const m of text.matchAll(this.homes)) push(found, "home", m.index, m.index + m[0].length, m[0]);
    if (kinds.has("home") && hasHome(text)) {
      for (const m of text.matchAll(HOME_SHAPE)) {
        if (PLACEHOLDER.test(m[2] as string)) continue; // already redacted
        const start = m.index + (m[1] as string).length;
        push(found, "home", start, start + (m[2] as string).length, m[2] as string, m.index);
      }
    }
    if (kinds.has("email") && text.includes("@"))
      for (const m of text.matchAll(EMAIL)) push(found, "email", m.index, m.index + m[0].length, m[0].toLowerCase());
    // Keys, tokens and passwords: gitleaks' published rules (gitleaks.ts), never a list of our own.
    if (kinds.has("key")) for (const f of secretRules().find(text)) push(found, "key", f.start, f.end, f.value, f.from);
    if (kinds.has("ip")) {
      if (IPV4_HINT.test(text))
        for (const m of text.matchAll(IPV4))
          if (isIPv4(m[0]) && !VERSION_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index)))
            push(found, "ip", m.index, m.index + m[0].length, m[0]);
      if (IPV6_HINT.test(text)) {
        for (const m of text.matchAll(IPV6)) {
          const v = m[0];
          if (/[0-9A-Fa-f]/.test(v) && (v.includes("::") || allGroups(v)) && isIPv6(v))
            push(found, "ip", m.index, m.index + v.length, v.toLowerCase());
        }
      }
    }
    if (this.hosts)
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
