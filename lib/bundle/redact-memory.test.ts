import { describe, expect, it } from "vitest";
import { type DetectorContext, REDACT_KINDS, type RedactKind } from "./detectors";
import { dropRun, redactMemoryText } from "./redact-memory";
import { Redactor } from "./redactor";

/**
 * A memory file redacted for a bundle: only the frontmatter's values, the text
 * whole, and with texts dropped every byte kept as an `x` (sizes and line ends
 * stay). Each expectation is the exact output, so a changed field rule, line
 * end or byte count fails here.
 */

const ctx: DetectorContext = { homes: [], hosts: [], keywords: ["title"] };
const all = new Set<RedactKind>([...REDACT_KINDS, "keyword"]);
const redact = (source: string, dropText = false) => redactMemoryText(source, new Redactor(ctx, all), dropText);

describe("redactMemoryText", () => {
  it("redacts only the values of frontmatter fields, then the text whole", () => {
    // "title" is a keyword: as a field's name it stays, as a word in a value or the text it goes.
    const source = "---\ntitle: the title of ana@example.org\n  sessionId :c-1\n---\nthe title, ana@example.org\n";
    expect(redact(source)).toBe(
      "---\ntitle: the <keyword-1> of <email-1>\n  sessionId :c-1\n---\nthe <keyword-1>, <email-1>\n",
    );
  });

  it("takes a field's name however it is spaced: indented, a space before the colon, none after it", () => {
    expect(redact("---\n  title: title\ntitle : title\ntitle:title\n---\n")).toBe(
      "---\n  title: <keyword-1>\ntitle : <keyword-1>\ntitle:<keyword-1>\n---\n",
    );
  });

  it("opens and closes the block only on lines that are --- (a CR only at the end)", () => {
    expect(redact("--\r-\ntitle: a\n--\r-\n")).toBe("--\r-\n<keyword-1>: a\n--\r-\n");
    expect(redact("--\r-\ntitle: a\n---\n")).toBe("--\r-\n<keyword-1>: a\n---\n");
    expect(redact("---\n--\r-\ntitle: a\n---\n")).toBe("---\n--\r-\ntitle: a\n---\n");
  });

  it("redacts a frontmatter line that is not a field whole, name and all", () => {
    expect(redact("---\n- title: x\ntitle\n---\n")).toBe("---\n- <keyword-1>: x\n<keyword-1>\n---\n");
  });

  it("takes a block opened after a byte order mark and closed with CRLF line ends", () => {
    expect(redact("\uFEFF---\r\ntitle: ana@example.org\r\n---\r\ntitle\r\n")).toBe(
      "\uFEFF---\r\ntitle: <email-1>\r\n---\r\n<keyword-1>\r\n",
    );
  });

  it("redacts every line whole when the block is never closed, or does not open on the first line", () => {
    expect(redact("---\ntitle: a\n")).toBe("---\n<keyword-1>: a\n");
    expect(redact("\n---\ntitle: a\n---\n")).toBe("\n---\n<keyword-1>: a\n---\n");
    expect(redact("title: a\n---\n")).toBe("<keyword-1>: a\n---\n");
  });

  it("drops the text as x's of the same UTF-8 byte length, keeping CR and LF and the fields", () => {
    const source = "---\ntitle: t\n---\nÜber é€😀\r\nab\n";
    const dropped = redact(source, true);
    expect(dropped).toBe(`---\ntitle: t\n---\n${"x".repeat(Buffer.byteLength("Über é€😀"))}\r\nxx\n`);
    expect(Buffer.byteLength(dropped)).toBe(Buffer.byteLength(source));
  });

  it("dropRun replaces every character but line ends, byte for byte", () => {
    expect(dropRun("é\r\n😀 a")).toBe("xx\r\nxxxxxx");
    expect(dropRun("")).toBe("");
  });
});
