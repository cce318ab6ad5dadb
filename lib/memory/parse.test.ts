import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import { DEFAULT_LIMITS } from "./limits";
import { isSafePlainString, parseMemoryFile, parseMemorySource, readSimpleBlock } from "./parse";

const enc = (s: string) => new TextEncoder().encode(s);
const parse = (s: string | Uint8Array, limits = DEFAULT_LIMITS) =>
  parseMemoryFile(typeof s === "string" ? enc(s) : s, limits);
const messageOf = (s: string | Uint8Array, limits = DEFAULT_LIMITS) => {
  const p = parse(s, limits);
  return p.ok ? null : p.message;
};

describe("reading a memory file", () => {
  it("reads the contract's example: fields, normalised title, trimmed text", () => {
    const p = parse(
      "---\ntitle: Reply   language\nenabled: true\nsource: user\nsessionId: 7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21\ncreated: 2026-11-29T18:24:08.123Z\nupdated: 2026-11-29T18:30:00.000Z\n---\n\n  Reply in short bullet points.  \n\n",
    );
    expect(p).toEqual({
      ok: true,
      title: "Reply language",
      text: "Reply in short bullet points.",
      fields: {
        title: "Reply   language",
        enabled: true,
        source: "user",
        sessionId: "7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21",
        created: "2026-11-29T18:24:08.123Z",
        updated: "2026-11-29T18:30:00.000Z",
      },
    });
  });

  it("tolerates a BOM and CRLF line ends", () => {
    const p = parse("\uFEFF---\r\ntitle: A\r\nenabled: false\r\nsource: ai\r\n---\r\n\r\nText\r\n");
    expect(p.ok && [p.title, p.text, p.fields.enabled, p.fields.source]).toEqual(["A", "Text", false, "ai"]);
  });

  it("keeps unknown fields in file order", () => {
    const p = parseMemorySource("---\nzeta: 1\ntitle: A\nenabled: true\nsource: user\nalpha: [x]\n---\nT");
    expect(p.ok && p.fields.otherFields).toEqual([
      ["zeta", 1],
      ["alpha", ["x"]],
    ]);
  });

  it("checks in the contract's order, the first that applies wins", () => {
    const limits = { ...DEFAULT_LIMITS, fileMaxBytes: 1024 };
    // too large and not UTF-8 and no frontmatter: size first
    expect(messageOf(new Uint8Array(1025).fill(0xff), limits)).toBe("The file is larger than 1024 bytes.");
    expect(messageOf(new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff]))).toBe(
      "The file cannot be read: it is not valid UTF-8 text.",
    );
    expect(messageOf("title: A\n")).toBe("The file does not start with a --- frontmatter block.");
    expect(messageOf("---\ntitle: A\nenabled: true\n")).toBe("The file does not start with a --- frontmatter block.");
    expect(messageOf(" ---\ntitle: A\n---\n")).toBe("The file does not start with a --- frontmatter block.");
    expect(messageOf("---\ntitle: [a\n---\nx")).toMatch(/^The frontmatter is not valid YAML: /);
    expect(messageOf("---\n- a\n---\nx")).toBe("The frontmatter fields title, enabled, source are missing or invalid.");
    expect(messageOf("---\n---\nx")).toBe("The frontmatter fields title, enabled, source are missing or invalid.");
    expect(
      messageOf("---\ntitle: A\nenabled: yes\nsource: user\ncreated: yesterday\nupdated: 2026-13-45T99:00:00Z\n---\nx"),
    ).toBe("The frontmatter fields enabled, created, updated are missing or invalid.");
    expect(messageOf("---\ntitle: 12\nenabled: true\nsource: human\nsessionId: 5\n---\nx")).toBe(
      "The frontmatter fields title, source, sessionId are missing or invalid.",
    );
    expect(messageOf(`---\ntitle: ${"t".repeat(121)}\nenabled: true\nsource: user\n---\nx`)).toBe(
      "The memory is longer than 2000 characters or its title longer than 120; shorten it in the file.",
    );
    expect(messageOf(`---\ntitle: t\nenabled: true\nsource: user\n---\n${"x".repeat(2001)}`)).toBe(
      "The memory is longer than 2000 characters or its title longer than 120; shorten it in the file.",
    );
  });

  it("names the file's line of a YAML error", () => {
    const p = parse("---\ntitle: A\nenabled: true\ntitle: B\nsource: user\n---\nx");
    expect(p).toEqual({ ok: false, message: "The frontmatter is not valid YAML: Map keys must be unique", line: 4 });
  });
});

describe("hostile YAML", () => {
  const block = (yaml: string) => `---\n${yaml}\n---\ntext`;

  it("refuses aliases and anchors (billion laughs) without expanding them", () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      laughs.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(",")}]`,
      );
    expect(messageOf(block(`${laughs.join("\n")}\ntitle: A\nenabled: true\nsource: user`))).toBe(
      "The frontmatter is not valid YAML: Anchors and aliases are not allowed.",
    );
  });

  it("reports custom tags such as !!js/function", () => {
    expect(messageOf(block('title: !!js/function "function () { return 1 }"\nenabled: true\nsource: user'))).toBe(
      "The frontmatter is not valid YAML: Unresolved tag: tag:yaml.org,2002:js/function",
    );
    expect(messageOf(block("title: !custom A\nenabled: true\nsource: user"))).toBe(
      "The frontmatter is not valid YAML: Unresolved tag: !custom",
    );
  });

  it("reports 10,000-deep nesting as a YAML problem, never throwing", () => {
    const deep = `title: A\nenabled: true\nsource: user\nx: ${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const m = messageOf(block(deep), { ...DEFAULT_LIMITS, fileMaxBytes: 1048576 });
    expect(m).toMatch(/^The frontmatter is not valid YAML: \S/);
    const deepMap = `title: A\nenabled: true\nsource: user\nx: ${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}`;
    expect(messageOf(block(deepMap), { ...DEFAULT_LIMITS, fileMaxBytes: 1048576 })).toMatch(
      /^The frontmatter is not valid YAML: \S/,
    );
  });

  it("keeps a __proto__ key as plain data, never touching prototypes", () => {
    const p = parseMemorySource(
      block("title: A\nenabled: true\nsource: user\n__proto__: {polluted: true}\nconstructor: x"),
    );
    expect(p.ok && p.fields.otherFields).toEqual([
      ["__proto__", { polluted: true }],
      ["constructor", "x"],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(messageOf(block("__proto__: {title: A, enabled: true, source: user}"))).toBe(
      "The frontmatter fields title, enabled, source are missing or invalid.",
    );
  });

  it("refuses duplicate keys", () => {
    expect(messageOf(block("title: A\ntitle: B\nenabled: true\nsource: user"))).toBe(
      "The frontmatter is not valid YAML: Map keys must be unique",
    );
  });
});

describe("the fast path for plain blocks", () => {
  const value = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9 _.,()/?!'-]{1,20}$/),
    fc.constantFrom(
      "true",
      "True",
      "null",
      "NULL",
      "~",
      "1e-5",
      "0x1F",
      "0o17",
      "12",
      "1.",
      ".5",
      "a: b",
      "a #b",
      "é ü",
      "x  y",
    ),
  );
  it.each(fuzzSeeds(2002))(
    "agrees with the YAML parser on every block it accepts ($label seed $seed)",
    ({ label, seed }) => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.constantFrom("title", "enabled", "source", "sessionId", "created", "updated"), value), {
            maxLength: 6,
          }),
          (pairs) => {
            const blockText = pairs.map(([k, v]) => `${k}: ${v}`).join("\n");
            const raw = `---\n${blockText}\n---\nbody`;
            expect(parseMemorySource(raw)).toEqual(parseMemorySource(raw, { fastPath: false }));
          },
        ),
        { numRuns: label === "fixed" ? 2000 : 1000, seed },
      );
    },
  );

  it("accepts the common block and leaves everything else to YAML", () => {
    expect(readSimpleBlock("title: Reply language\nenabled: true\nsource: user\n")).toEqual(
      Object.assign(Object.create(null), { title: "Reply language", enabled: true, source: "user" }),
    );
    expect(readSimpleBlock("title: Reply\n# a comment\n")).toBeUndefined();
    expect(isSafePlainString("null")).toBe(false);
    expect(isSafePlainString("1e5")).toBe(false);
    expect(isSafePlainString("Übersicht")).toBe(true);
  });
});

describe("parse, the edges", () => {
  const fields = "title: A\nenabled: true\nsource: user";
  const withField = (line: string) => `---\n${fields}\n${line}\n---\nx`;

  it("takes created and updated only as ISO 8601 date-times with a zone, fraction optional", () => {
    for (const ok of [
      "2026-11-29T18:24:08Z",
      "2026-11-29T18:24:08.123456789Z",
      "2026-11-29T18:24:08+01:00",
      "2026-11-29T18:24:08.1-05:30",
    ]) {
      for (const fastPath of [true, false])
        expect(parseMemorySource(withField(`created: ${ok}`), { fastPath }), ok).toMatchObject({
          ok: true,
          fields: { created: ok },
        });
      expect(readSimpleBlock(`updated: ${ok}\n`)).toEqual(Object.assign(Object.create(null), { updated: ok }));
    }
    for (const bad of [
      "2026-11-29T18:24:08",
      "2026-11-29",
      "+002026-11-29T18:24:08Z",
      "2026-11-29T18:24:08.1234567890Z",
      "2026-11-29T18:24:08+0100",
      "2026-11-29T18:24:08+1:00",
      "2026-11-29T18:24:08+01:0",
      "2026-13-01T00:00:00Z",
      "[2026-11-29T18:24:08Z]",
    ])
      expect(messageOf(withField(`created: ${bad}`)), bad).toBe(
        "The frontmatter fields created are missing or invalid.",
      );
  });

  it("gives a problem's line only when there is one, and no absent field a key", () => {
    expect(parse("no block")).toStrictEqual({
      ok: false,
      message: "The file does not start with a --- frontmatter block.",
    });
    const p = parse(`---\n${fields}\n---\nx`);
    expect(p.ok && p.fields).toStrictEqual({ title: "A", enabled: true, source: "user" });
    expect(parseMemorySource(`---\n${fields}\n---\nx`, { fastPath: false })).toStrictEqual(p);
  });

  it("finds the frontmatter block only between two whole --- lines", () => {
    expect(messageOf("---\r")).toBe("The file does not start with a --- frontmatter block.");
    expect(messageOf(`--\r-\n${fields}\n---\nx`)).toBe("The file does not start with a --- frontmatter block.");
    expect(messageOf(`---\n${fields}\n--\r-\nx`)).toBe("The file does not start with a --- frontmatter block.");
    expect(messageOf(`\uFEFF\uFEFF---\n${fields}\n---\nx`)).toBe(
      "The file does not start with a --- frontmatter block.",
    );
    // a closing line at the very end of the file: no text
    expect(parse(`---\n${fields}\n---`)).toMatchObject({ ok: true, title: "A", text: "" });
    expect(parse(`---\n${fields}\n---\r`)).toMatchObject({ ok: true, title: "A", text: "" });
  });

  it("the fast path reads only whole simple lines, CRLF, and each field's own form", () => {
    const obj = (o: Record<string, unknown>) => Object.assign(Object.create(null), o);
    expect(readSimpleBlock("title: A\nenabled: false")).toEqual(obj({ title: "A", enabled: false }));
    expect(readSimpleBlock("title: A\r\nenabled: true\r\n")).toEqual(obj({ title: "A", enabled: true }));
    expect(readSimpleBlock("title:  A  \n")).toEqual(obj({ title: "A" }));
    expect(readSimpleBlock("xtitle: A\n")).toBeUndefined();
    expect(readSimpleBlock("enabled: yes\n")).toBeUndefined();
    expect(readSimpleBlock("created: 2026-11-29\n")).toBeUndefined();
    for (const plain of ["a1", "1a", "Übersicht", "x y"]) expect(isSafePlainString(plain), plain).toBe(true);
    for (const core of ["12", "1e-5", "12.5", "1.5", "1e10", ".5", "0x1F", "0o17", "a ", "FALSE"])
      expect(isSafePlainString(core), core).toBe(false);
  });

  it("reads YAML without merge keys or anchors, with plain keys of any scalar kind", () => {
    const block = (y: string) => `---\n${y}\n---\nx`;
    expect(messageOf(block("<<: {title: A, enabled: true, source: user}"))).toBe(
      "The frontmatter fields title, enabled, source are missing or invalid.",
    );
    expect(parse(block(`enabled: true\nsource: user\ntitle: &a A`))).toStrictEqual({
      ok: false,
      message: "The frontmatter is not valid YAML: Anchors and aliases are not allowed.",
      line: 4,
    });
    expect(parse(block(`${fields}\n? [a, b]\n: 1`))).toStrictEqual({
      ok: false,
      message: "The frontmatter is not valid YAML: Map keys must be plain values.",
      line: 5,
    });
    const p = parseMemorySource(block(`1: x\ntrue: y\nnull: z\n${fields}\nextra:`));
    expect(p.ok && p.fields.otherFields).toEqual([
      ["1", "x"],
      ["true", "y"],
      ["null", "z"],
      ["extra", null],
    ]);
    expect(parse(block("]"))).toStrictEqual({
      ok: false,
      message: 'The frontmatter is not valid YAML: Unexpected flow-seq-end token in YAML document: "]"',
      line: 2,
    });
    expect(parse(block(`${fields}\nx: [a\n`))).toMatchObject({ ok: false, line: 7 });
    expect(parse(block(`title: "a\nenabled: true`))).toMatchObject({ ok: false, line: 4 });
  });

  it("takes a file of exactly fileMaxBytes bytes, and refuses one more", () => {
    const raw = `---\n${fields}\n---\nx`;
    const size = enc(raw).length;
    expect(parse(raw, { ...DEFAULT_LIMITS, fileMaxBytes: size }).ok).toBe(true);
    expect(messageOf(raw, { ...DEFAULT_LIMITS, fileMaxBytes: size - 1 })).toBe(
      `The file is larger than ${size - 1} bytes.`,
    );
  });
});

describe("parse, a key with no value", () => {
  it("reads `? key` (an explicit key alone) as a field whose value is null", () => {
    const p = parseMemorySource("---\n? extra\ntitle: A\nenabled: true\nsource: user\n---\nx");
    expect(p.ok && p.fields.otherFields).toEqual([["extra", null]]);
  });
});
