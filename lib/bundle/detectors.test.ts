import { describe, expect, it } from "vitest";
import { type DetectorContext, REDACT_KINDS, type RedactKind } from "./detectors";
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
