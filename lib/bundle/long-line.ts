import { StringDecoder } from "node:string_decoder";
import { droppedAt, fillerFor, type JsonPath } from "./drop-text";
import type { Redactor } from "./redactor";
import { TextStream } from "./text-stream";

/**
 * A log line over the line limit, redacted as it streams by: it is never held
 * whole, yet goes into the bundle whole. While it reads as JSON, each string
 * is redacted as `redactJson` would (keys that give a line its shape kept,
 * `--drop-text` by the string's place); a string that comes out the same is
 * written with its original bytes, a long one is redacted in pieces. From the
 * first byte that cannot be JSON, the rest of the line is redacted as text.
 */

/** A string longer than this (decoded characters) is redacted in pieces rather than held. */
const HELD_STRING_CHARS = 256 * 1024;
const LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;
const TOKEN_CHAR = /[-+.0-9a-zA-Z]/;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

interface Frame {
  array: boolean;
  expectKey: boolean;
  key: string | number;
}

/** One string being read: its decoded text so far, its original bytes while it is held, or its stream. */
interface OpenString {
  key: boolean;
  text: string;
  raw: string;
  stream: TextStream | null;
  escape: string | null;
}

/** Streams one long line through the redactor; `emit` gets the line's redacted text in order. */
export class LongLine {
  private readonly decoder = new StringDecoder("utf8");
  private readonly stack: Frame[] = [];
  private str: OpenString | null = null;
  private token = "";
  private text: TextStream | null = null;
  private started = false;
  private type: string | undefined;
  private anyChange = false;

  constructor(
    private readonly redactor: Redactor,
    private readonly dropText: boolean,
    private readonly emit: (text: string) => void,
  ) {}

  /** True when some byte came out different from the original line (escapes written anew do not count). */
  get changed(): boolean {
    return this.anyChange || (this.text?.changed ?? false);
  }

  push(bytes: Buffer): void {
    this.feed(this.decoder.write(bytes));
  }

  /** The line is over: what is held goes out. */
  end(): void {
    this.feed(this.decoder.end());
    if (this.str) {
      // An unclosed string: the line is not JSON; what it held goes out as text.
      const open = this.str;
      this.str = null;
      if (open.stream) {
        open.stream.end();
        if (open.stream.changed) this.anyChange = true;
      } else this.toText(open.raw);
    }
    if (this.token) this.endToken();
    this.text?.end();
  }

  private feed(s: string): void {
    let i = 0;
    while (i < s.length) {
      if (this.text) {
        this.text.push(s.slice(i));
        return;
      }
      if (this.str) {
        i = this.inString(s, i);
        continue;
      }
      const c = s[i] as string;
      if (TOKEN_CHAR.test(c) && this.stack.length) {
        this.token += c;
        i++;
        continue;
      }
      if (this.token && !this.endToken()) continue;
      if (!this.structural(c)) {
        this.toText(s.slice(i));
        return;
      }
      i++;
    }
  }

  /** Ends a number or literal; false (and the rest is text) when it is neither. */
  private endToken(): boolean {
    const token = this.token;
    this.token = "";
    if (LITERAL.test(token)) {
      this.emit(token);
      return true;
    }
    this.toText(token);
    return false;
  }

  /** White space and JSON punctuation outside strings; false for anything else. */
  private structural(c: string): boolean {
    const top = this.stack[this.stack.length - 1];
    if (c === " " || c === "\t" || c === "\r") {
      this.emit(c);
      return true;
    }
    if (!this.started) {
      if (c !== "{") return false;
      this.started = true;
    } else if (!top) return false;
    if (c === "{" || c === "[") this.stack.push({ array: c === "[", expectKey: c === "{", key: 0 });
    else if (c === "}" || c === "]") this.stack.pop();
    else if (c === ":" && top && !top.array) top.expectKey = false;
    else if (c === "," && top) {
      if (top.array) top.key = (top.key as number) + 1;
      else top.expectKey = true;
    } else if (c === '"' && top) {
      this.str = { key: !top.array && top.expectKey, text: "", raw: '"', stream: null, escape: null };
      return true;
    } else return false;
    this.emit(c);
    return true;
  }

  /** Reads string characters from `i`; returns where it stopped. */
  private inString(s: string, i: number): number {
    const open = this.str as OpenString;
    if (open.escape !== null) {
      const e = open.escape + s[i];
      if (!open.stream) open.raw += s[i];
      open.escape = e;
      if (e[0] === "u" && e.length < 5) return i + 1;
      open.escape = null;
      // An escape JSON does not know (the line is no JSON then) is kept as its two characters.
      const unicode = /^u[0-9a-fA-F]{4}$/.test(e) ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : null;
      this.add(open, unicode ?? ESCAPES[e] ?? `\\${e}`);
      return i + 1;
    }
    let j = i;
    while (j < s.length && s[j] !== '"' && s[j] !== "\\") j++;
    if (j > i) {
      open.raw += open.stream ? "" : s.slice(i, j);
      this.add(open, s.slice(i, j));
    }
    if (j === s.length) return j;
    if (s[j] === "\\") {
      open.escape = "";
      if (!open.stream) open.raw += "\\";
      return j + 1;
    }
    this.closeString(open);
    return j + 1;
  }

  /** Decoded text of the open string; past `HELD_STRING_CHARS` it is streamed. */
  private add(open: OpenString, piece: string): void {
    if (open.stream) {
      open.stream.push(piece);
      return;
    }
    open.text += piece;
    if (open.text.length <= HELD_STRING_CHARS) return;
    const drop = this.dropText && !open.key && droppedAt(this.path(), this.type);
    this.emit('"');
    open.stream = new TextStream(this.redactor, drop, (t) => this.emit(JSON.stringify(t).slice(1, -1)));
    if (drop) this.anyChange = true;
    open.stream.push(open.text);
    open.text = "";
    open.raw = "";
  }

  private closeString(open: OpenString): void {
    this.str = null;
    const top = this.stack[this.stack.length - 1] as Frame;
    if (open.stream) {
      open.stream.end();
      if (open.stream.changed) this.anyChange = true;
      this.emit('"');
      if (open.key) top.key = "";
      return;
    }
    let out: string;
    if (open.key) {
      top.key = open.text;
      out = this.redactor.redactKey(open.text);
    } else {
      const path = this.path();
      if (path.length === 1 && path[0] === "type") this.type = open.text;
      const drop = this.dropText && droppedAt(path, this.type);
      out = this.redactor.redactText(drop ? fillerFor(open.text) : open.text);
    }
    if (out === open.text) this.emit(`${open.raw}"`);
    else {
      this.anyChange = true;
      this.emit(JSON.stringify(out));
    }
  }

  private path(): JsonPath {
    return this.stack.map((f) => f.key);
  }

  /** From here on the line is redacted as plain text. */
  private toText(rest: string): void {
    this.text ??= new TextStream(this.redactor, false, this.emit);
    if (rest) this.text.push(rest);
  }
}
