import { isIPv4, isIPv6 } from "node:net";

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
// A run of hex and colons with a `::` or seven colons, proved by `net.isIPv6`.
const IPV6 = /(?<![\w:.])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*(?![\w:])/g;
const KEY_SHAPES = [
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[bpars]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
];
// A long hex or base64 value after a word that says it is secret: only the value is replaced.
const SECRET_AFTER_WORD =
  /(?:api[_-]?key|apikey|access[_-]?key|key|token|secret|password|passwd|pwd|bearer|authorization)(?:\\?["'])?\s*[:=]?\s*(?:\\?["'])?\s*(?:bearer\s+)?([A-Fa-f0-9]{16,}|[A-Za-z0-9+/_-]{20,}={0,2})/gi;

// Cheap first looks: a kind's full patterns run only on text that passes its filter (most log lines pass none).
// Each passes everything its kind can find. Literal searches and patterns that begin with a literal are
// fast; on a 1 GB log these looks were most of a bundle's time.
const hasHome = (t: string) => t.includes("/home/") || t.includes("Users");
// Digits around two dots: a timestamp's `01.000Z` (on every log line) does not pass, any IPv4 address does.
const IPV4_HINT = /\.\d{1,3}\.\d/;
// `::`, or three groups between colons (an address without `::` has eight groups); not a time of day.
const IPV6_HINT = /::|:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}:/;
const KEY_PREFIXES = ["sk-", "github_pat_", "AKIA", "ASIA", "xox", "eyJ", "AIza"];
const hasKeyShape = (t: string) => KEY_PREFIXES.some((p) => t.includes(p)) || /gh[pousr]_/.test(t);
// The word, then what SECRET_AFTER_WORD allows between it and the value, then a value's first 16 characters:
// `input_tokens` (in every usage) does not pass.
const SECRET_WORD_HINT =
  /(?:key|token|secret|passw|pwd|bearer|authorization)\w*?[\s"'\\:=]*(?:bearer\s+)?[A-Za-z0-9+/_-]{16}/i;

function push(out: Found[], kind: RedactKind, start: number, end: number, value: string, from = start): void {
  out.push({ kind, start, end, from, value });
}

/** The detectors of one bundle, compiled once: `find` runs on every string of every file. */
export class Detectors {
  private readonly keywords: RegExp | null;
  private readonly homes: RegExp | null;
  private readonly hosts: RegExp | null;

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
    if (kinds.has("key")) {
      if (hasKeyShape(text))
        for (const re of KEY_SHAPES)
          for (const m of text.matchAll(re)) push(found, "key", m.index, m.index + m[0].length, m[0]);
      if (SECRET_WORD_HINT.test(text)) {
        for (const m of text.matchAll(SECRET_AFTER_WORD)) {
          const value = m[1] as string;
          if (!/\d/.test(value) && !/[A-Z]/.test(value)) continue; // a long plain word is prose, not a secret
          const start = m.index + m[0].length - value.length;
          push(found, "key", start, start + value.length, value, m.index);
        }
      }
    }
    if (kinds.has("ip")) {
      if (IPV4_HINT.test(text))
        for (const m of text.matchAll(IPV4)) if (isIPv4(m[0])) push(found, "ip", m.index, m.index + m[0].length, m[0]);
      if (IPV6_HINT.test(text)) {
        for (const m of text.matchAll(IPV6)) {
          const v = m[0];
          if (/[0-9A-Fa-f]/.test(v) && (v.includes("::") || v.split(":").length === 8) && isIPv6(v))
            push(found, "ip", m.index, m.index + v.length, v.toLowerCase());
        }
      }
    }
    if (this.hosts)
      for (const m of text.matchAll(this.hosts))
        push(found, "host", m.index, m.index + m[0].length, m[0].toLowerCase());
    return found.length > 1 ? resolveOverlaps(found) : found;
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
