import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeDemo } from "../../scripts/demo";
import { testScope } from "../../test-support/bundle/test-scope";
import { plantProblems, SECRETS } from "../../test-support/bundle/testing";
import { tempFolder } from "../../test-support/test-temp";
import { type DoctorReport, runDoctor } from "../doctor";
import { createBundle } from "./create";
import { unpackBundle } from "./unpack";

/**
 * A bundle is evidence (issue 26): the doctor run on the opened bundle finds
 * the problems the report made on the source names, chat for chat and memory
 * for memory, though every file was redacted.
 */

const temp = () => tempFolder("oda-faithful-");

/**
 * One report's problems, keyed by file, each message with its root written as `<root>`. A rewritten log's
 * byte offsets and sizes cannot stay (a placeholder is longer or shorter than its value, frames are made
 * anew); the line, the kind and the sentence must. A stale lock is judged only on its own computer
 * (README, Opening one), so it is no problem in a bundle.
 */
function problemsOf(report: DoctorReport, roots: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const section of report.sections)
    for (const p of section.problems) {
      if (p.path.endsWith("/session.lock")) continue;
      let message = p.message;
      for (const root of roots) message = message.split(root).join("<root>");
      message = message.replace(/\d+ bytes?|(?:byte|has|position) \d+/g, "<n>");
      const key = `${section.name}: ${p.path}${p.line === undefined ? "" : `:${p.line}`}`;
      out.set(key, [...(out.get(key) ?? []), message].sort());
    }
  return out;
}

async function compare(roots: { home: string; logs: string }, base: string) {
  const file = join(base, "bundle.tar.gz");
  await createBundle(roots, testScope({ memory: true }), file, { version: "test" });
  const opened = await unpackBundle(file, join(base, "state"));
  const source = JSON.parse(readFileSync(join(opened.dir, "bundle", "doctor.json"), "utf8")) as DoctorReport;
  const found = await runDoctor({ home: opened.home, logs: opened.logs });
  const rootsOf = (r: { home: string; logs: string }) => [r.logs, r.home];
  return {
    source: problemsOf(source, rootsOf(roots)),
    bundle: problemsOf(found, rootsOf(opened)),
    file,
    opened,
  };
}

describe("the doctor on an opened bundle", () => {
  it("finds every problem of the demo data that the source's report names, file for file", async () => {
    const base = temp();
    const demo = await makeDemo({ out: join(base, "demo"), chats: 20 });
    const { source, bundle, opened } = await compare(demo, base);
    expect(source.size).toBeGreaterThan(8);
    expect(Object.fromEntries(bundle)).toEqual(Object.fromEntries(source));
    // The demo has a value of every kind, so a preview of it shows them all.
    const kinds = (opened.manifest.redaction?.kinds ?? []).map((k) => k.kind);
    for (const kind of ["email", "home", "host", "ip", "key"]) expect(kinds).toContain(kind);
  });

  it("finds one of each problem kind again, in files that were all rewritten", async () => {
    const base = temp();
    const roots = await plantProblems(base);
    const { source, bundle, opened } = await compare(roots, base);
    expect([...source.keys()].length).toBeGreaterThanOrEqual(19);
    expect(Object.fromEntries(bundle)).toEqual(Object.fromEntries(source));
    // every one of them was redacted: no byte of the planted values is left
    const all = execFileSync("sh", ["-c", `grep -rlF ${SECRETS.email} . || true`], { cwd: opened.dir }).toString();
    expect(all).toBe("");
  });
});

describe("a bundle's files", () => {
  it("keep a memory that is not valid UTF-8 byte for byte, and redact one around its invalid bytes", async () => {
    const base = temp();
    const demo = await makeDemo({ out: join(base, "demo"), chats: 2 });
    const roots = await plantProblems(join(base, "planted"));
    for (const home of [demo.home, roots.home]) {
      const file = join(base, `${home === demo.home ? "demo" : "planted"}.tar.gz`);
      await createBundle({ home, logs: null }, testScope({ memory: true, chats: null }), file, { version: "test" });
      const opened = await unpackBundle(file, join(base, "state"));
      if (home === demo.home) {
        const kept = readFileSync(join(opened.home, "memory", "global", "e0000002"));
        expect(kept.toString("hex")).toBe(Buffer.from("---\n\xFF\xFE\n", "latin1").toString("hex"));
      } else {
        const kept = readFileSync(join(opened.home, "memory", "global", "f0000001"));
        expect(kept.includes(Buffer.from(SECRETS.email))).toBe(false);
        expect(kept.subarray(-3).toString("hex")).toBe("fffe0a");
      }
    }
  });

  it("hold every copy of a chat stored in two places", async () => {
    const base = temp();
    const demo = await makeDemo({ out: join(base, "demo"), chats: 2 });
    const file = join(base, "b.tar.gz");
    await createBundle(demo, testScope({ chats: ["c-demo-two-places"] }), file, { version: "test" });
    const listed = execFileSync("tar", ["-tzf", file]).toString();
    const copies = listed.split("\n").filter((l) => /c-demo-two-places\/session\.v4\.jsonl\.zstd$/.test(l));
    expect(copies).toHaveLength(2);
  });
});
