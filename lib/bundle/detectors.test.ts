import { describe, expect, it } from "vitest";
import { type DetectorContext, Detectors, REDACT_KINDS, type RedactKind } from "./detectors";
import { Redactor } from "./redactor";

const ctx: DetectorContext = { homes: ["/root", "/home/ana"], hosts: ["build-box-7"], keywords: ["Falcon"] };
const all = new Set<RedactKind>([...REDACT_KINDS, "keyword"]);
const redact = (text: string, kinds: Set<RedactKind> = all) => new Redactor(ctx, kinds).redactText(text);

describe("detectors", () => {
  it("replaces user names in every home shape, and this machine's home whole", () => {
    expect(redact("/home/ana/reports and /Users/bob/x")).toBe("/home/user-1/reports and /Users/user-2/x");
    expect(redact("C:\\Users\\carl\\docs")).toBe("C:\\Users\\user-1\\docs");
    expect(redact('{"p":"C:\\\\Users\\\\carl\\\\docs"}')).toBe('{"p":"C:\\\\Users\\\\user-1\\\\docs"}');
    expect(redact("/root/notes and /rooted")).toBe("<home-1>/notes and /rooted");
  });

  it("finds host names from the machine and lock files, case-insensitively, as whole names", () => {
    expect(redact("on BUILD-BOX-7 and build-box-77")).toBe("on <host-1> and build-box-77");
  });

  it("finds e-mails, IPv4 and IPv6 but not times or versions", () => {
    expect(redact("mail Ana.L@Example.org or ana.l@example.org")).toBe("mail <email-1> or <email-1>");
    expect(redact("ssh 10.1.2.3, version 1.2.3, 999.1.1.1")).toBe("ssh <ip-1>, version 1.2.3, 999.1.1.1");
    expect(redact("fe80::1ff:fe23:4567:890a and ::1 at 18:24:08.123")).toBe("<ip-1> and <ip-2> at 18:24:08.123");
    expect(redact("2001:0db8:0000:0000:0000:ff00:0042:8329")).toBe("<ip-1>");
  });

  it("takes e-mail local parts with every character legal in them, whole", () => {
    // RFC 5322 atext, then a dot inside: each one alone between letters, and all of them together.
    const legal = "!#$%&'*+-/=?^_`{|}~.";
    for (const ch of legal) {
      expect(redact(`to ana${ch}x@example.org, please`)).toBe("to <email-1>, please");
      expect(redact(`${ch === "'" || ch === "`" ? "" : ch}ana@example.org`)).toBe("<email-1>");
    }
    const r = new Redactor(ctx, all);
    expect(r.redactText("ana+work@example.org and Ana+Work@Example.org")).toBe("<email-1> and <email-1>");
    expect(r.redactText("a!#$%&'*+-/=?^_`{|}~.z@example.org")).toBe("<email-2>");
    expect(r.mapEntries().map((e) => e.value)).toEqual(["ana+work@example.org", "a!#$%&'*+-/=?^_`{|}~.z@example.org"]);
    // A quote or backtick around an address stays where it is.
    expect(redact("write to `ana@example.org` or 'bo@example.org'")).toBe("write to `<email-1>` or '<email-2>'");
  });

  it("finds API keys, tokens and JWTs by shape, and long secrets after key words", () => {
    const text = [
      "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",
      "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
      "AKIAZ3MSJV4WCRO2PQ7X",
      "xoxb-1234567890-9876543210aBcDeFgH",
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFuYSJ9.c2lnbmF0dXJlc2VjcmV0eHl6",
      "password=9f86d081884c7d659a2feaa0c55ad015",
      '"api_key": "QWxhZGRpbjpvcGVuIHNlc2FtZQ=="',
    ].join(" ");
    expect(redact(text)).toBe('<key-1> <key-2> <key-3> <key-4> <key-5> password=<key-6> "api_key": "<key-7>"');
    // prose after a key word is left alone
    expect(redact("the token is accommodatingly")).toBe("the token is accommodatingly");
  });

  it("finds keywords anywhere, case-insensitively", () => {
    expect(redact("falconry and FALCON")).toBe("<keyword-1>ry and <keyword-1>");
  });

  it("keeps a placeholder stable across strings and counts every replacement", () => {
    const r = new Redactor(ctx, all);
    expect(r.redactText("a@b.io x")).toBe("<email-1> x");
    expect(r.redactText("c@d.io a@b.io")).toBe("<email-2> <email-1>");
    expect(r.replaced.email).toBe(3);
    expect(r.mapEntries().map((e) => e.value)).toEqual(["a@b.io", "c@d.io"]);
  });

  it("redacts encoded folder names so they still decode", () => {
    const r = new Redactor(ctx, all);
    expect(r.redactText("--%2Fhome%2Fana%2Freports--/c-1")).toBe("--%2Fhome%2Fuser-1%2Freports--/c-1");
    expect(r.redactText("x%40falcon.io")).toBe("%3Cemail-1%3E");
  });

  it("turns off kinds that are not chosen, and redacting twice changes nothing more", () => {
    expect(redact("a@b.io 10.0.0.1", new Set<RedactKind>(["ip"]))).toBe("a@b.io <ip-1>");
    const r = new Redactor(ctx, all);
    const once = r.redactText("/home/ana/x a@b.io on build-box-7");
    expect(r.redactText(once)).toBe(once);
  });

  it("walks JSON values and keeps structural keys", () => {
    const r = new Redactor({ ...ctx, keywords: ["text"] }, all);
    expect(r.redactJson({ type: "message", text: "the text", "a@b.io": 1 })).toEqual({
      type: "message",
      text: "the <keyword-1>",
      "<email-1>": 1,
    });
  });
});

describe("values learned private", () => {
  it("are replaced wherever they stand afterwards, a user name only in paths", () => {
    const r = new Redactor(ctx, all);
    const hex = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b";
    expect(r.redactText(`token: ${hex}`)).toBe("token: <key-1>");
    // the same value without the word that gave it away, in another string (another file)
    expect(r.redactText(`it was ${hex}, again`)).toBe("it was <key-1>, again");
    expect(r.redactText(`see /home/anasecret/x and connect as anasecret`)).toBe(
      "see /home/user-1/x and connect as anasecret",
    );
  });
});

describe("a JSON value", () => {
  it("is looked at with its key, which tells a rule what it is, and only the value is replaced", async () => {
    const { redactLine } = await import("./redact-log");
    const r = new Redactor(ctx, all);
    const line = '{"type":"message","input":{"api_key": "Zx81mQ2vL7pW4nR9tK3s","note":"plain words here"}}';
    expect(redactLine(line, r, false)).toBe(
      '{"type":"message","input":{"api_key": "<key-1>","note":"plain words here"}}',
    );
    expect(r.redactJson({ password: "Zx81mQ2vL7pW4nR9tK3s-other" })).toEqual({ password: "<key-2>" });
  });
});

describe("Detectors.find, exactly", () => {
  const only = (...kinds: RedactKind[]) => new Set<RedactKind>(kinds);
  const spans = (d: Detectors, text: string) => d.find(text).map((f) => [f.kind, text.slice(f.start, f.end), f.value]);

  it("skips empty keywords and one-character homes and hosts, which would match everywhere", () => {
    const d = new Detectors({ homes: ["/", ""], hosts: ["a", ""], keywords: ["", "Falcon"] }, new Set([...all]));
    expect(spans(d, "a / b FALCON")).toEqual([["keyword", "FALCON", "falcon"]]);
  });

  it("finds a kind only when it is chosen", () => {
    const c: DetectorContext = { homes: ["/srv/ana"], hosts: ["build-box-7"], keywords: ["Falcon"] };
    const text = "falcon /srv/ana build-box-7 /home/bo a@b.io 10.0.0.1 ::1";
    expect(spans(new Detectors(c, only()), text)).toEqual([]);
    expect(spans(new Detectors(c, only("keyword")), text)).toEqual([["keyword", "falcon", "falcon"]]);
    expect(spans(new Detectors(c, only("home")), text)).toEqual([
      ["home", "/srv/ana", "/srv/ana"],
      ["home", "bo", "bo"],
    ]);
    expect(spans(new Detectors(c, only("host")), text)).toEqual([["host", "build-box-7", "build-box-7"]]);
    expect(spans(new Detectors(c, only("email")), text)).toEqual([["email", "a@b.io", "a@b.io"]]);
    expect(spans(new Detectors(c, only("ip")), text)).toEqual([
      ["ip", "10.0.0.1", "10.0.0.1"],
      ["ip", "::1", "::1"],
    ]);
  });

  it("gives each home path's user name with where its whole match begins", () => {
    const d = new Detectors({ homes: [], hosts: [], keywords: [] }, only("home"));
    expect(d.find("at /Users/bo/x")).toEqual([{ kind: "home", start: 10, end: 12, from: 3, value: "bo" }]);
    // A placeholder left by an earlier pass is not a user name.
    expect(d.find("/home/user-1/x /home/<home-2>/y")).toEqual([]);
  });

  it("maps hosts, e-mails, keywords and IPv6 to lower case, a literal home as it is", () => {
    const d = new Detectors({ homes: ["/srv/Ana"], hosts: ["Box-7"], keywords: ["Falcon"] }, new Set([...all]));
    expect(spans(d, "BOX-7 Ana@B.IO FALCON FE80::1 /srv/Ana")).toEqual([
      ["host", "BOX-7", "box-7"],
      ["email", "Ana@B.IO", "ana@b.io"],
      ["keyword", "FALCON", "falcon"],
      ["ip", "FE80::1", "fe80::1"],
      ["home", "/srv/Ana", "/srv/Ana"],
    ]);
  });

  it("takes IPv4 addresses whole, not inside longer dotted numbers or after a version word", () => {
    const d = new Detectors({ homes: [], hosts: [], keywords: [] }, only("ip"));
    expect(spans(d, "10.0.0.1")).toEqual([["ip", "10.0.0.1", "10.0.0.1"]]);
    expect(spans(d, "1.2.3.4.5 a1.2.3.4 1.2.3.4x9 256.1.1.1")).toEqual([]);
    expect(spans(d, "1.2.3.4x")).toEqual([["ip", "1.2.3.4", "1.2.3.4"]]);
    expect(spans(d, "v1.2.3.4 release: 10.0.0.1 build 10.0.0.2 ver. 10.0.0.3")).toEqual([]);
    // The version word must be right before it: twelve characters back at most.
    expect(spans(d, "version was 10.0.0.1")).toEqual([["ip", "10.0.0.1", "10.0.0.1"]]);
  });

  it("takes IPv6 with :: or eight groups, never a bare :: or a time of day", () => {
    const d = new Detectors({ homes: [], hosts: [], keywords: [] }, only("ip"));
    expect(spans(d, "1:2:3:4:5:6:7:8")).toEqual([["ip", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"]]);
    expect(spans(d, "1:2:3:4:5:6:7 a::b:: std::vector :: 12:34:56")).toEqual([]);
    // Six groups and an IPv4 tail are an address whole: not only its IPv4 part is replaced.
    expect(spans(d, "fe80:2:3:4:5:6:10.1.2.3")).toEqual([["ip", "fe80:2:3:4:5:6:10.1.2.3", "fe80:2:3:4:5:6:10.1.2.3"]]);
    expect(spans(d, "1:2:3:4:5:1.2.3.4")).toEqual([["ip", "1.2.3.4", "1.2.3.4"]]);
  });

  it("keeps the earliest, then the longest, of overlapping spans", () => {
    const d = new Detectors({ homes: [], hosts: ["example.org"], keywords: ["ana", "mple"] }, new Set([...all]));
    expect(spans(d, "ana@example.org")).toEqual([["email", "ana@example.org", "ana@example.org"]]);
    expect(spans(d, "xana@example.org")).toEqual([["email", "xana@example.org", "xana@example.org"]]);
    expect(spans(d, "example.org")).toEqual([["host", "example.org", "example.org"]]);
    expect(spans(d, "ana mple")).toEqual([
      ["keyword", "ana", "ana"],
      ["keyword", "mple", "mple"],
    ]);
  });

  it("learns values of four characters and more, not homes or keywords, and finds them whole, longest first", () => {
    const d = new Detectors({ homes: [], hosts: [], keywords: [] }, only());
    d.learn("home", "anahome");
    d.learn("keyword", "kwkwkw");
    d.learn("email", "abc");
    d.learn("key", "Zx81mQ");
    d.learn("key", "Zx81mQ-long");
    // As the redactor learns them: an e-mail in lower case, found again whatever its case; a key exactly.
    d.learn("email", "ana@example.org");
    expect(spans(d, "anahome kwkwkw abc Zx81mQ zx81mq Zx81mQ-long xZx81mQ Zx81mQ_ ANA@example.ORG")).toEqual([
      ["key", "Zx81mQ", "Zx81mQ"],
      ["key", "Zx81mQ-long", "Zx81mQ-long"],
      ["email", "ANA@example.ORG", "ana@example.org"],
    ]);
    expect(d.find("Zx81mQ-long")).toEqual([{ kind: "key", start: 0, end: 11, from: 0, value: "Zx81mQ-long" }]);
    // Learning a value again changes nothing, not even its kind.
    d.learn("ip", "Zx81mQ");
    expect(spans(d, "Zx81mQ")).toEqual([["key", "Zx81mQ", "Zx81mQ"]]);
  });
});

describe("Detectors.find, from the mutation run's survivors", () => {
  const none: DetectorContext = { homes: [], hosts: [], keywords: [] };
  const spans = (d: Detectors, text: string) => d.find(text).map((f) => [f.kind, text.slice(f.start, f.end)]);

  it("finds nothing in the word null when it has no keywords, homes, hosts or learned values", () => {
    // String.prototype.matchAll(null) searches for "null": each pattern is used only when there is one.
    expect(new Detectors(none, new Set([...all])).find("null /home/null")).toEqual([
      { kind: "home", start: 11, end: 15, from: 5, value: "null" },
    ]);
    expect(new Detectors(none, new Set([...all])).find("null")).toEqual([]);
  });

  it("finds keys only when keys are chosen", () => {
    const text = "password=9f86d081884c7d659a2feaa0c55ad015";
    expect(spans(new Detectors(none, new Set<RedactKind>(["email"])), text)).toEqual([]);
    expect(spans(new Detectors(none, new Set<RedactKind>(["key"])), text)).toEqual([
      ["key", "9f86d081884c7d659a2feaa0c55ad015"],
    ]);
  });

  it("finds every one of several literal homes and hosts", () => {
    const d = new Detectors(
      { homes: ["/srv/ana", "/opt/bo"], hosts: ["box-1", "box-2"], keywords: [] },
      new Set<RedactKind>(["home", "host"]),
    );
    expect(spans(d, "/opt/bo box-2 /srv/ana box-1")).toEqual([
      ["home", "/opt/bo"],
      ["host", "box-2"],
      ["home", "/srv/ana"],
      ["host", "box-1"],
    ]);
  });

  it("leaves a user-<n> placeholder in a home path alone, and nothing else that looks like one", () => {
    const d = new Detectors(none, new Set<RedactKind>(["home"]));
    expect(spans(d, "/home/user-12/x")).toEqual([]);
    expect(spans(d, "/home/xuser-1/x /home/user-1x/y /home/user-/z")).toEqual([
      ["home", "xuser-1"],
      ["home", "user-1x"],
      ["home", "user-"],
    ]);
  });

  it("takes an e-mail's domain with all its labels", () => {
    const d = new Detectors(none, new Set<RedactKind>(["email"]));
    expect(spans(d, "ana@mail.example.org")).toEqual([["email", "ana@mail.example.org"]]);
  });

  it("IPv4: every group of one to three digits, the look past its end, and version words right before it", () => {
    const d = new Detectors(none, new Set<RedactKind>(["ip"]));
    expect(spans(d, "10.10.10.10")).toEqual([["ip", "10.10.10.10"]]);
    expect(spans(d, "10.0.0.12")).toEqual([["ip", "10.0.0.12"]]);
    expect(spans(d, "1.2.3.4 9")).toEqual([["ip", "1.2.3.4"]]);
    expect(spans(d, "1.2.3.4ab9 1.2.3.4a.5")).toEqual([]);
    expect(spans(d, "ver 10.0.0.1, version : 10.0.0.2, version:10.0.0.3")).toEqual([]);
    // The version word is looked for in the twelve characters before the address only.
    expect(spans(d, "release:          10.0.0.1")).toEqual([["ip", "10.0.0.1"]]);
  });

  it("keeps two spans that touch, and prefers the longest learned value where both would match", () => {
    const d = new Detectors({ ...none, keywords: ["ab", "cd"] }, new Set<RedactKind>(["keyword"]));
    expect(spans(d, "abcd")).toEqual([
      ["keyword", "ab"],
      ["keyword", "cd"],
    ]);
    const l = new Detectors(none, new Set<RedactKind>());
    l.learn("key", "host.example");
    l.learn("key", "host.example.org");
    l.learn("key", "wxyz");
    expect(spans(l, "host.example.org wxyz")).toEqual([
      ["key", "host.example.org"],
      ["key", "wxyz"],
    ]);
  });
});
