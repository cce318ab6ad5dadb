import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import {
  checkTitleAndText,
  countCodePoints,
  countUtf8Bytes,
  describePayloadNote,
  estimateTokens,
  type MemoryFields,
  normaliseTitle,
  renderPayload,
  SOURCE_WORDS,
  serialiseMemoryFile,
  VERSION_SOURCES,
} from "./format";
import { DEFAULT_LIMITS } from "./limits";
import { parseMemorySource } from "./parse";

describe("format", () => {
  it("normalises a title to one line with single spaces", () => {
    expect(normaliseTitle("  Reply \n\t language  ")).toBe("Reply language");
  });

  it("counts code points, not UTF-16 units, and estimates ceil(cp/4) tokens", () => {
    expect(countCodePoints("😀ab")).toBe(3);
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimateTokens("😀😀😀😀")).toBe(1);
  });

  it("renders the payload as ## blocks joined by one empty line", () => {
    expect(
      renderPayload([
        { title: "A", text: "x" },
        { title: "B", text: "y\nz" },
      ]),
    ).toBe("## A\nx\n\n## B\ny\nz");
  });

  it("writes the exact bytes of the contract, unknown fields kept", () => {
    const fields: MemoryFields = {
      title: "Reply language",
      enabled: true,
      source: "user",
      sessionId: "7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21",
      created: "2026-11-29T18:24:08.123Z",
      updated: "2026-11-29T18:30:00.000Z",
      otherFields: [["tags", ["a", "b"]]],
    };
    expect(serialiseMemoryFile(fields, "\n Reply in short bullet points. \n")).toBe(
      "---\ntitle: Reply language\nenabled: true\nsource: user\nsessionId: 7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21\n" +
        "created: 2026-11-29T18:24:08.123Z\nupdated: 2026-11-29T18:30:00.000Z\ntags:\n  - a\n  - b\n---\n\nReply in short bullet points.\n",
    );
  });

  it("quotes a title the core schema would read as something else", () => {
    const raw = serialiseMemoryFile({ title: "true", enabled: false, source: "ai" }, "x");
    expect(raw).toBe('---\ntitle: "true"\nenabled: false\nsource: ai\n---\n\nx\n');
  });

  it("refuses titles and texts with the exact sentences, title first", () => {
    expect(checkTitleAndText(" ", "", DEFAULT_LIMITS)).toEqual([
      { field: "title", message: "A memory needs a title." },
      { field: "text", message: "A memory needs some text." },
    ]);
    expect(checkTitleAndText("t".repeat(121), "x".repeat(2001), DEFAULT_LIMITS)).toEqual([
      { field: "title", message: "A memory title is limited to 120 characters; this one has 121." },
      {
        field: "text",
        message:
          "A memory is limited to 2000 characters; this one has 2001. Shorten it or split it into several memories.",
      },
    ]);
    expect(checkTitleAndText("t".repeat(120), "😀".repeat(2000), DEFAULT_LIMITS)).toEqual([]);
  });

  it("describes the note a running chat gets: added, changed with new text, removed by title", () => {
    const before = [
      { id: "a", title: "A", text: "old" },
      { id: "b", title: "B", text: "gone" },
    ];
    const after = [
      { id: "a", title: "A", text: "new" },
      { id: "c", title: "C", text: "fresh" },
    ];
    expect(describePayloadNote(before, after)).toBe(
      'Your memory has changed.\n\nAdded:\n\n## C\nfresh\n\nChanged:\n\n## A\nnew\n\nRemoved: "B".\n\nThis applies from now on; the rest of your memory is unchanged.',
    );
    expect(describePayloadNote(before, before)).toBeNull();
  });
});

const title = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 60 })
  .map(normaliseTitle)
  .filter((t) => t.length > 0);
const text = fc.string({ unit: "grapheme", maxLength: 300 }).map((t) => t.trim());
const iso = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());
const other = fc.tuple(
  fc
    .stringMatching(/^[a-z][a-zA-Z0-9_]{0,10}$/)
    .filter((k) => !["title", "enabled", "source", "sessionId", "created", "updated"].includes(k)),
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 })),
);
const fields = fc.record(
  {
    title,
    enabled: fc.boolean(),
    source: fc.constantFrom("user" as const, "ai" as const),
    sessionId: fc.string({ maxLength: 40 }),
    created: iso,
    updated: iso,
    otherFields: fc.uniqueArray(other, { selector: (o) => o[0], maxLength: 3 }),
  },
  { requiredKeys: ["title", "enabled", "source"] },
);

describe("parse ∘ serialise", () => {
  it.each(fuzzSeeds(3004))(
    "round-trips any valid memory (fields, unknown fields, text) ($label seed $seed)",
    ({ label, seed }) => {
      fc.assert(
        fc.property(fields, text, (f, t) => {
          const parsed = parseMemorySource(serialiseMemoryFile(f, t));
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) return;
          const expected: MemoryFields = { ...f };
          if (!f.otherFields?.length) delete expected.otherFields;
          expect(parsed.fields).toEqual(expected);
          expect(parsed.title).toBe(f.title);
          expect(parsed.text).toBe(t);
          // serialising again gives the same bytes
          expect(serialiseMemoryFile(parsed.fields, parsed.text)).toBe(serialiseMemoryFile(f, t));
        }),
        { numRuns: label === "fixed" ? 300 : 150, seed },
      );
    },
  );
});

describe("format, the edges", () => {
  it("has the contract's version sources, in its order, with the dashboard's words for each", () => {
    // docs/file-contract.md, "A version is a past state …": the suffixes of a version's name.
    expect(VERSION_SOURCES).toEqual(["chat", "settings", "restore", "undo", "external", "found"]);
    expect(SOURCE_WORDS).toEqual({
      chat: "from a chat",
      settings: "in Settings",
      restore: "restored",
      undo: "undone",
      external: "edited outside the app",
      found: "found",
    });
  });

  it("writes a long title on one line, never folded", () => {
    const title = "word ".repeat(24).trim();
    expect(serialiseMemoryFile({ title, enabled: true, source: "user" }, "x")).toBe(
      `---\ntitle: ${title}\nenabled: true\nsource: user\n---\n\nx\n`,
    );
  });

  it("counts UTF-8 bytes: one to four per code point", () => {
    expect(countUtf8Bytes("aé€😀")).toBe(1 + 2 + 3 + 4);
    expect(countUtf8Bytes("")).toBe(0);
  });

  it("writes a document in YAML 1.2's core schema: a string that 1.1 would read as a boolean stays plain", () => {
    // YAML 1.1 reads yes/no/on/off as booleans and quotes them; the contract's reader is 1.2 core.
    expect(serialiseMemoryFile({ title: "yes", enabled: true, source: "user" }, "x")).toBe(
      "---\ntitle: yes\nenabled: true\nsource: user\n---\n\nx\n",
    );
  });

  it("counts code points like the string iterator, at every surrogate boundary", () => {
    // Code units on each side of the surrogate ranges, in every sequence of up to three: a pair counts once,
    // a lone surrogate (at the end, before a non-low unit, or a low one first) counts as one.
    const units = [0x41, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000];
    const strings = [""];
    for (let len = 1; len <= 3; len++)
      for (let n = 0; n < units.length ** len; n++) {
        let s = "";
        for (let k = 0, r = n; k < len; k++, r = Math.floor(r / units.length))
          s += String.fromCharCode(units[r % units.length] as number);
        strings.push(s);
      }
    for (const s of strings) expect(countCodePoints(s), JSON.stringify(s)).toBe([...s].length);
    expect(countCodePoints("\ud800\udc00")).toBe(1);
    expect(countCodePoints("\ud800")).toBe(1);
  });

  it("writes no field that is not given, and keeps the contract's fields over unknown ones of the same name", () => {
    const raw = serialiseMemoryFile(
      {
        title: "T",
        enabled: true,
        source: "user",
        otherFields: [
          ["title", "other"],
          ["enabled", false],
          ["x", 1],
        ],
      },
      "body",
    );
    expect(raw).toBe("---\ntitle: T\nenabled: true\nsource: user\nx: 1\n---\n\nbody\n");
  });

  it("takes a title or a text exactly at its limit, and one code point over it refused", () => {
    const limits = { titleMaxChars: 3, textMaxChars: 5 };
    expect(checkTitleAndText("abc", "abcde", limits)).toEqual([]);
    expect(checkTitleAndText("abcd", "abcde", limits)).toEqual([
      { field: "title", message: "A memory title is limited to 3 characters; this one has 4." },
    ]);
    expect(checkTitleAndText("abc", "abcdef", limits)).toEqual([
      {
        field: "text",
        message: "A memory is limited to 5 characters; this one has 6. Shorten it or split it into several memories.",
      },
    ]);
    // Counted after normalising: white space at the ends is not counted, runs inside count as one.
    expect(checkTitleAndText("  a  b ", " abcde \n", limits)).toEqual([]);
  });

  it("notes only what happened: one addition, a title change, removals by title", () => {
    const a = { id: "a", title: "A", text: "x" };
    const tail = "This applies from now on; the rest of your memory is unchanged.";
    expect(describePayloadNote([], [a])).toBe(`Your memory has changed.\n\nAdded:\n\n## A\nx\n\n${tail}`);
    expect(describePayloadNote([a], [{ ...a, title: "A2" }])).toBe(
      `Your memory has changed.\n\nChanged:\n\n## A2\nx\n\n${tail}`,
    );
    expect(describePayloadNote([a, { id: "b", title: "B", text: "y" }], [])).toBe(
      `Your memory has changed.\n\nRemoved: "A", "B".\n\n${tail}`,
    );
    // The same memories in another order: nothing to say.
    expect(describePayloadNote([a, { id: "b", title: "B", text: "y" }], [{ id: "b", title: "B", text: "y" }, a])).toBe(
      null,
    );
  });
});
