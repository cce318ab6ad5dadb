import { describe, expect, it } from "vitest";
import { encodeName } from "../chats/names";
import { REDACT_KINDS, type RedactKind } from "./detectors";
import { keyLead, kindsFrom, Redactor } from "./redactor";

// The Redactor's own rules, exactly (docs/mutation.md): placeholders and their numbers, what is counted and
// reported, encoded folder names, JSON keys, workspace keys. The detectors' patterns are detectors.test.ts's.

const ctx = { homes: ["/srv/homes/anasecret"], hosts: ["ana-laptop"], keywords: ["falconx"] };
const all = new Set<RedactKind>([...REDACT_KINDS, "keyword"]);
const fresh = (kinds: Set<RedactKind> = all) => new Redactor(ctx, kinds);

describe("Redactor's placeholders", () => {
  it("numbers each kind on its own, the same value always the same placeholder; a user name stays a path segment", () => {
    const r = fresh();
    expect(r.redactText("a@example.org b@example.org a@example.org")).toBe("<email-1> <email-2> <email-1>");
    expect(r.redactText("on ana-laptop from 10.1.2.3")).toBe("on <host-1> from <ip-1>");
    expect(r.redactText("/home/bob/x and /srv/homes/anasecret/y")).toBe("/home/user-1/x and <home-2>/y"); // one count for the kind
    expect(r.placeholderOf("email", "c@example.org")).toBe("<email-3>");
    expect(r.placeholderOf("email", "a@example.org")).toBe("<email-1>");
    expect(r.mapEntries()).toEqual([
      { kind: "email", placeholder: "<email-1>", value: "a@example.org" },
      { kind: "email", placeholder: "<email-2>", value: "b@example.org" },
      { kind: "host", placeholder: "<host-1>", value: "ana-laptop" },
      { kind: "ip", placeholder: "<ip-1>", value: "10.1.2.3" },
      { kind: "home", placeholder: "user-1", value: "bob" },
      { kind: "home", placeholder: "<home-2>", value: "/srv/homes/anasecret" },
      { kind: "email", placeholder: "<email-3>", value: "c@example.org" },
    ]);
    // A copy: changing it changes nothing inside.
    r.mapEntries().pop();
    expect(r.mapEntries()).toHaveLength(7);
  });

  it("seeded from an earlier map keeps each value's placeholder and numbers new ones after the highest", () => {
    const r = fresh();
    r.seed([
      { kind: "email", placeholder: "<email-7>", value: "a@example.org" },
      { kind: "email", placeholder: "<email-3>", value: "b@example.org" },
      { kind: "email", placeholder: "<email-9>", value: "a@example.org" }, // a value seen twice: the first wins
      { kind: "home", placeholder: "user-4", value: "bob" },
      { kind: "host", placeholder: "odd", value: "box-one" }, // no number: counts as 0
      { kind: "ip", placeholder: "<ip-12>", value: "10.0.0.9" }, // the number is all the digits at the end
      { kind: "key", placeholder: "k2-5", value: "Zx81mQ2vL7pW4nR9tK3s" },
    ]);
    expect(r.placeholderOf("ip", "10.0.0.10")).toBe("<ip-13>");
    expect(r.placeholderOf("key", "other")).toBe("<key-6>");
    expect(r.redactText("a@example.org b@example.org c@example.org")).toBe("<email-7> <email-3> <email-8>");
    expect(r.redactText("/home/bob /home/eve")).toBe("/home/user-4 /home/user-5");
    // A seeded value is learned: found again even where no pattern would find it.
    expect(r.redactText("box-one and box-two")).toBe("odd and box-two");
    expect(r.placeholderOf("host", "h2")).toBe("<host-1>");
    expect(r.mapEntries().slice(0, 4)).toEqual([
      { kind: "email", placeholder: "<email-7>", value: "a@example.org" },
      { kind: "email", placeholder: "<email-3>", value: "b@example.org" },
      { kind: "home", placeholder: "user-4", value: "bob" },
      { kind: "host", placeholder: "odd", value: "box-one" },
    ]);
  });
});

describe("Redactor's counts and report", () => {
  it("counts every replacement, each kind's distinct values, and the files, sorted; nameFile moves the current file's", () => {
    const r = fresh();
    r.file = "b.txt";
    r.redactText("10.0.0.1 x@example.org x@example.org");
    r.file = "a.txt";
    r.redactText("y@example.org");
    r.file = "";
    r.redactText("z@example.org");
    r.nameFile("c.txt"); // the file being redacted had no path yet
    r.redactText("10.0.0.2");
    expect(r.replaced).toEqual({ email: 4, ip: 2 });
    expect(r.report()).toEqual([
      { kind: "email", values: 3, replacements: 4, files: ["a.txt", "b.txt", "c.txt"] },
      { kind: "ip", values: 2, replacements: 2, files: ["b.txt", "c.txt"] },
    ]);
  });

  it("names no file when made for a preview (listFiles false), and counts the same", () => {
    const r = new Redactor(ctx, all, false);
    r.file = "b.txt";
    r.redactText("10.0.0.1 x@example.org x@example.org");
    r.file = "";
    r.redactText("y@example.org");
    r.nameFile("c.txt");
    expect(r.report()).toEqual([
      { kind: "email", values: 2, replacements: 3, files: [] },
      { kind: "ip", values: 1, replacements: 1, files: [] },
    ]);
  });

  it("lists a file with no path yet under the empty path", () => {
    const r = fresh();
    r.redactText("a@example.org");
    expect(r.report()).toEqual([{ kind: "email", values: 1, replacements: 1, files: [""] }]);
  });

  it("counts nothing for touches, and answers it for encoded names too", () => {
    const r = fresh();
    expect(r.touches("")).toBe(false);
    expect(r.touches("nothing here")).toBe(false);
    expect(r.touches("mail a@example.org")).toBe(true);
    expect(r.touches(`logs/${encodeName("/srv/falconx/app")}/c-1`)).toBe(true);
    expect(r.touches(`logs/${encodeName("/srv/plain app")}/c-1`)).toBe(false);
    // Split by an escape, an address is only seen decoded.
    expect(r.touches(`logs/${encodeName("/srv/a@example.org/x")}/c-1`)).toBe(true);
    // Escapes that are no encoded name (it would be written "aA").
    expect(r.touches("a%41")).toBe(false);
    expect(r.touches("100% sure, %ZZ and %2")).toBe(false);
    expect(r.replaced).toEqual({});
    expect(r.report()).toEqual([]);
    expect(fresh(new Set()).touches("a@example.org")).toBe(false);
  });
});

describe("Redactor and encoded folder names", () => {
  it("decodes a name, redacts it, and encodes it again; other names and text are left as they are", () => {
    const r = fresh();
    const name = encodeName("/srv/homes/anasecret/falconx");
    expect(r.redactText(`--${name}--/c-1`)).toBe(`--${encodeName("<home-1>/<keyword-1>")}--/c-1`);
    const plain = encodeName("/srv/plain app");
    expect(r.redactText(`--${plain}--`)).toBe(`--${plain}--`);
    expect(r.redactText("100% done, %41%42 is AB")).toBe("100% done, %41%42 is AB");
    expect(fresh(new Set()).redactText(`--${name}--`)).toBe(`--${name}--`);
  });

  it("takes an encoded name exactly: escapes of two upper-case hex digits, nothing broken around it", () => {
    const r = fresh();
    // The address is only seen in the encoded name `…a%40example.org`, which each of these borders.
    for (const text of [
      "%4a%40example.org",
      "%zza%40example.org",
      "x%4y%40example.org",
      "a%40example.org%4",
      "a%40example.org%zz",
    ]) {
      const out = r.redactText(text);
      expect(out).not.toContain("example.org");
      expect(out).toMatch(/%3Cemail-\d%3E/);
    }
  });

  it("gives the spans of every value and every encoded name, sorted", () => {
    const r = fresh();
    const name = encodeName("/srv/x y");
    const text = `mail a@example.org in ${name} at 10.0.0.1`;
    const at = text.indexOf(name);
    expect(r.spansOf(text)).toEqual([
      [5, 18],
      [at, at + name.length],
      [text.indexOf("10.0.0.1"), text.length],
    ]);
    expect(r.spansOf("no percent a@example.org")).toEqual([[11, 24]]);
    expect(fresh(new Set()).spansOf(`a@example.org ${name}`)).toEqual([]);
  });
});

describe("Redactor and JSON", () => {
  it("redacts every string and every key that gives no shape, looking at a key with its value", () => {
    const r = fresh();
    const value = {
      type: "falconx",
      falconx: ["a@example.org", 3, null, true, { text: "on ana-laptop" }],
      api_key: "Zx81mQ2vL7pW4nR9tK3s", // a key only by its key: alone it is a word
      n: 1,
    };
    expect(r.redactJson(value)).toEqual({
      type: "<keyword-1>",
      "<keyword-1>": ["<email-1>", 3, null, true, { text: "on <host-1>" }],
      api_key: "<key-1>",
      n: 1,
    });
    expect(r.redactJson("a@example.org")).toBe("<email-1>");
    expect(r.redactJson(["Zx81mQ2vL7pW4nR9tK3s-alone"])).toEqual(["Zx81mQ2vL7pW4nR9tK3s-alone"]);
    expect(r.redactJson(null)).toBeNull();
    expect(r.redactKey("text")).toBe("text");
    expect(r.redactKey("falconx")).toBe("<keyword-1>");
  });

  it("a key's lead is what the rules see before its value; none for a key that gives a line its shape", () => {
    expect(keyLead("api_key")).toBe('"api_key": "');
    expect(keyLead("text")).toBe("");
    for (const k of ["type", "ts", "role", "content", "id", "cwd", "title", "pid", "host", "sha256", "compress"])
      expect(keyLead(k)).toBe("");
    const r = fresh();
    // The lead itself is never replaced, and a value found only with it is.
    expect(r.redactText("falconx tail", '"falconx": "')).toBe("<keyword-1> tail");
  });
});

describe("the keys that give a line its shape", () => {
  // Written out from the log and file formats (docs/file-contract.md), apart from the code.
  const keys = [
    ...["type", "ts", "time", "role", "content", "text", "id", "name", "input", "tool_use_id", "is_error"],
    ...["model", "usage", "input_tokens", "output_tokens", "format", "created", "cwd", "continues", "mode"],
    ...["title", "pid", "host", "startedAt", "sha256", "savedAt", "source", "deletedAt", "memory", "sessions"],
    "compress",
  ];
  it("are never replaced, even when a keyword equals one, and lead no value", () => {
    for (const key of keys) {
      const r = new Redactor({ homes: [], hosts: [], keywords: [key] }, new Set(["keyword"]));
      expect(r.redactKey(key)).toBe(key);
      expect(keyLead(key)).toBe("");
      expect(r.redactJson({ [key]: 1 })).toEqual({ [key]: 1 });
    }
    const r = new Redactor({ homes: [], hosts: [], keywords: ["note"] }, new Set(["keyword"]));
    expect(r.redactKey("note")).toBe("<keyword-1>");
  });
});

describe("workspace keys and kinds", () => {
  it("keeps a workspace key a valid folder name", () => {
    const r = fresh();
    expect(r.redactWorkspaceKey("falconx-ws")).toBe("keyword-1-ws");
    expect(r.redactWorkspaceKey("falconx.on.ana-laptop")).toBe("keyword-1.on.host-1");
    expect(r.redactWorkspaceKey("a@example.org")).toBe("email-1");
    expect(r.redactWorkspaceKey(".x")).toBe("w.x");
    expect(r.redactWorkspaceKey("plain")).toBe("plain");
    expect(r.redactWorkspaceKey("not a key")).toBe("not_a_key");
  });

  it("takes the kinds asked for, and keyword only when words were given", () => {
    expect([...kindsFrom({ kinds: ["home", "email"], keywords: [] })]).toEqual(["home", "email"]);
    expect([...kindsFrom({ kinds: ["ip"], keywords: ["x"] })]).toEqual(["ip", "keyword"]);
    expect(fresh(new Set()).off).toBe(true);
    expect(fresh().off).toBe(false);
  });
});
