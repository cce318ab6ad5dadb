import { fillerFor } from "./drop-text";
import type { Redactor } from "./redactor";

/**
 * Redacting a text too long to hold whole (a log line over the line limit,
 * or one string of it), piece by piece. Each piece is redacted on its own,
 * and a piece ends only where no value the detectors find in the text around
 * it (with `OVERLAP` characters of what follows) crosses the cut: a secret
 * spanning two pieces is redacted whole, in the first. The cuts depend on the
 * text alone, so two runs over the same text (the preview and the bundle)
 * replace the same values.
 */

/** Characters redacted at a time. */
export const PIECE_CHARS = 1024 * 1024;
/** Characters after a cut that the detectors see before it is made. */
export const OVERLAP_CHARS = 64 * 1024;
/**
 * A value found running into the end of the look-ahead waits for more text,
 * up to this much; longer (no real secret is megabytes long) it is cut at a piece.
 */
const MAX_PENDING = 8 * PIECE_CHARS;

/**
 * Where the first piece of `text` ends: at `PIECE_CHARS`, or later when a
 * found value crosses that point. `null` when such a value runs into the end
 * of the text so far (it may go on in what comes next).
 */
export function cutPoint(text: string, spans: [number, number][], final: boolean): number | null {
  let cut = Math.min(PIECE_CHARS, text.length);
  for (const [from, end] of spans) if (from < cut && end > cut) cut = end;
  if (!final && cut >= text.length) {
    if (text.length < MAX_PENDING) return null;
    cut = PIECE_CHARS;
  }
  // Never between the two halves of a surrogate pair (each would be written as an escape of its own).
  const c = text.charCodeAt(cut - 1);
  return c >= 0xd800 && c <= 0xdbff ? Math.min(cut + 1, text.length) : cut;
}

/** A long text fed in parts and handed on redacted (or, dropping text, as `x`s of the same encoded length). */
export class TextStream {
  private pending = "";
  /** True once some piece came out different from what went in. */
  changed = false;

  constructor(
    private readonly redactor: Redactor,
    private readonly drop: boolean,
    private readonly emit: (text: string) => void,
  ) {}

  push(text: string): void {
    this.pending += text;
    while (this.pending.length >= PIECE_CHARS + OVERLAP_CHARS) if (!this.cutOne(false)) return;
  }

  /** Hands on the rest. */
  end(): void {
    while (this.pending.length > PIECE_CHARS + OVERLAP_CHARS) if (!this.cutOne(false)) break;
    while (this.pending.length > PIECE_CHARS) this.cutOne(true);
    if (this.pending.length) this.out(this.pending);
    this.pending = "";
  }

  /** Cuts one piece off the front; false when it must wait for more text. */
  private cutOne(final: boolean): boolean {
    const text = this.pending;
    const cut = this.drop ? cutPoint(text, [], true) : cutPoint(text, this.redactor.spansOf(text), final);
    if (cut === null) return false;
    this.out(text.slice(0, cut));
    this.pending = text.slice(cut);
    return true;
  }

  private out(piece: string): void {
    const redacted = this.drop ? fillerFor(piece) : this.redactor.redactText(piece);
    if (redacted !== piece) this.changed = true;
    this.emit(redacted);
  }
}
