import { decodeName, encodeName } from "../chats/names";
import { type DetectorContext, Detectors, type RedactKind } from "./detectors";

/**
 * Consistent redaction for one bundle, as `sos clean` does it: the same value
 * always becomes the same placeholder in every file, so a support person can
 * still follow it, and the map back to the real values stays on this computer.
 */

/** One kind's line of a bundle's redaction report. */
export interface RedactionKindReport {
  kind: RedactKind;
  /** Distinct values replaced. */
  values: number;
  /** Replacements made (every occurrence). */
  replacements: number;
  /** Bundle paths of the files with a replacement of this kind. */
  files: string[];
}

/** One entry of the map written beside the bundle (never into it). */
export interface MapEntry {
  kind: RedactKind;
  placeholder: string;
  value: string;
}

// Object keys that give a log line or a file its shape: a keyword equal to one must not break it.
const STRUCTURAL_KEYS = new Set([
  "type",
  "ts",
  "time",
  "role",
  "content",
  "text",
  "id",
  "name",
  "input",
  "tool_use_id",
  "is_error",
  "model",
  "usage",
  "input_tokens",
  "output_tokens",
  "format",
  "created",
  "cwd",
  "continues",
  "mode",
  "title",
  "pid",
  "host",
  "startedAt",
  "sha256",
  "savedAt",
  "source",
  "deletedAt",
  "memory",
  "sessions",
  "compress",
]);

// An encoded name with at least one escape, as `encodeName` writes them.
const ENCODED = /(?:[A-Za-z0-9._-]|%[0-9A-F]{2})*%[0-9A-F]{2}(?:[A-Za-z0-9._-]|%[0-9A-F]{2})*/g;

/** Turns secrets into placeholders and counts what it replaced, kind by kind. */
export class Redactor {
  private readonly detectors: Detectors;
  private readonly placeholders = new Map<string, string>();
  private readonly perKind = new Map<RedactKind, number>();
  private readonly entries: MapEntry[] = [];
  /** How many values each kind replaced (every occurrence counts). */
  readonly replaced: Partial<Record<RedactKind, number>> = {};
  /** The bundle path of the file being redacted, for the report's list of files per kind. */
  file = "";
  private readonly filesOf = new Map<RedactKind, Set<string>>();

  /**
   * `listFiles` false (a preview, which shows counts only): the report names no file, so a preview of 100,000
   * chats does not hold the path of every file with a replacement.
   */
  constructor(
    ctx: DetectorContext,
    kinds: ReadonlySet<RedactKind>,
    private readonly listFiles = true,
  ) {
    this.detectors = new Detectors(ctx, kinds);
  }

  /**
   * Starts from an earlier map of the same bundle: each value keeps its placeholder, and new values are
   * numbered after the highest placeholder of their kind.
   */
  seed(entries: readonly MapEntry[]): void {
    for (const e of entries) {
      const key = `${e.kind}\u0000${e.value}`;
      if (this.placeholders.has(key)) continue;
      this.placeholders.set(key, e.placeholder);
      this.entries.push({ ...e });
      const n = Number(/(\d+)>?$/.exec(e.placeholder)?.[1] ?? 0);
      if (n > (this.perKind.get(e.kind) ?? 0)) this.perKind.set(e.kind, n);
      this.detectors.learn(e.kind, e.value);
    }
  }

  /** True when no kind is on: every file goes into the bundle as it is. */
  get off(): boolean {
    return this.detectors.kinds.size === 0;
  }

  /** The placeholder of one value, made on first sight. */
  placeholderOf(kind: RedactKind, value: string): string {
    const key = `${kind}\u0000${value}`;
    let placeholder = this.placeholders.get(key);
    if (placeholder === undefined) {
      const n = (this.perKind.get(kind) ?? 0) + 1;
      this.perKind.set(kind, n);
      // A user name inside a path stays a plain path segment; a whole home folder reads as one.
      placeholder = kind === "home" ? (/[/\\]/.test(value) ? `<home-${n}>` : `user-${n}`) : `<${kind}-${n}>`;
      this.placeholders.set(key, placeholder);
      this.entries.push({ kind, placeholder, value });
      this.detectors.learn(kind, value);
    }
    return placeholder;
  }

  /**
   * True when `redactText` would change `text` (nothing is counted). `bytes`: the text's bytes, when each is
   * one of its characters (`Detectors.find`).
   */
  touches(text: string, bytes?: Uint8Array): boolean {
    return !this.off && text.length > 0 && (this.detectors.find(text, bytes).length > 0 || this.encodedTouches(text));
  }

  /** The string with every secret replaced (the same string when there is none). */
  redactText(text: string, lead = ""): string {
    if (this.off || text.length === 0) return text;
    // Encoded folder names first: a secret split by `%XX` escapes is only seen decoded.
    const source = text.includes("%") ? this.redactEncoded(text) : text;
    // `lead` (a JSON value's key, `api_key: `) is looked at with the value, never replaced: it tells a
    // rule what the value is, as `api_key: "…"` does in a file.
    const found = lead
      ? this.detectors
          .find(lead + source)
          .filter((f) => f.start >= lead.length)
          .map((f) => ({ ...f, start: f.start - lead.length, end: f.end - lead.length }))
      : this.detectors.find(source);
    if (found.length === 0) return source;
    let out = "";
    let at = 0;
    for (const f of found) {
      out += source.slice(at, f.start) + this.placeholderOf(f.kind, f.value);
      at = f.end;
      this.replaced[f.kind] = (this.replaced[f.kind] ?? 0) + 1;
      const files = this.filesOf.get(f.kind) ?? new Set<string>();
      if (this.listFiles) files.add(this.file);
      this.filesOf.set(f.kind, files);
    }
    return out + source.slice(at);
  }

  /** Folder names as the log folder encodes them (`%2Fhome%2Fana`): decoded, redacted, encoded again. */
  private redactEncoded(text: string): string {
    return text.replace(ENCODED, (name) => {
      const value = decodeName(name);
      if (value === null || value === name) return name;
      const red = this.redactText(value);
      return red === value ? name : encodeName(red);
    });
  }

  private encodedTouches(text: string): boolean {
    if (!text.includes("%")) return false;
    for (const m of text.matchAll(ENCODED)) {
      const value = decodeName(m[0]);
      if (value !== null && value !== m[0] && this.detectors.find(value).length > 0) return true;
    }
    return false;
  }

  /**
   * Where every value `redactText` would find lies in `text`, each with what
   * leads to it (a `token:` word, a `/home/` folder) and every encoded folder
   * name: a long text is cut into pieces only outside these (text-stream.ts).
   */
  spansOf(text: string): [number, number][] {
    if (this.off) return [];
    const spans = this.detectors.find(text).map((f): [number, number] => [f.from, f.end]);
    if (text.includes("%")) for (const m of text.matchAll(ENCODED)) spans.push([m.index, m.index + m[0].length]);
    return spans.sort((a, b) => a[0] - b[0]);
  }

  /** An object key redacted, unless it gives a line its shape. */
  redactKey(key: string): string {
    return STRUCTURAL_KEYS.has(key) ? key : this.redactText(key);
  }

  /** A JSON value with every string (and every key that is not structural) redacted. */
  redactJson(value: unknown): unknown {
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) return value.map((v) => this.redactJson(v));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value))
        out[this.redactKey(k)] = typeof v === "string" ? this.redactText(v, keyLead(k)) : this.redactJson(v);
      return out;
    }
    return value;
  }

  /**
   * A workspace key (`^[A-Za-z0-9][A-Za-z0-9._-]*$`, stored unencoded): its
   * placeholders lose their angle brackets so the key stays a valid folder name.
   */
  redactWorkspaceKey(key: string): string {
    const out = this.redactText(key)
      .replace(/[<>]/g, "")
      .replace(/[^A-Za-z0-9._-]/g, "_");
    return /^[A-Za-z0-9]/.test(out) ? out : `w${out}`;
  }

  /** Counts what was replaced while the file had no path yet (its own path, being redacted) under `path`. */
  nameFile(path: string): void {
    if (this.listFiles) for (const files of this.filesOf.values()) if (files.delete(this.file)) files.add(path);
    this.file = path;
  }

  /**
   * The redaction report a bundle carries (never a value): for each kind that replaced something, how many
   * distinct values, how many replacements, and in which files.
   */
  report(): RedactionKindReport[] {
    return [...this.filesOf.keys()].sort().map((kind) => ({
      kind,
      values: this.perKind.get(kind) ?? 0,
      replacements: this.replaced[kind] ?? 0,
      files: [...(this.filesOf.get(kind) ?? [])].sort(),
    }));
  }

  /** The map from placeholders back to the real values, in the order they were first seen. */
  mapEntries(): MapEntry[] {
    return [...this.entries];
  }
}

/** What a JSON value's key tells the rules about it (`"api_key": "…"`); nothing for a key that gives a line its shape. */
export function keyLead(key: string): string {
  return STRUCTURAL_KEYS.has(key) ? "" : `${JSON.stringify(key)}: "`;
}

/** `--redact home,email` (or every kind) as a set, with `keyword` on when words were given. */
export function kindsFrom(options: { kinds: readonly RedactKind[]; keywords: readonly string[] }): Set<RedactKind> {
  const kinds = new Set<RedactKind>(options.kinds);
  if (options.keywords.length) kinds.add("keyword");
  return kinds;
}
