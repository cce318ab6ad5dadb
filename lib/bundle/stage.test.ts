import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testScope } from "../../test-support/bundle/test-scope";
import { createChat } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { encodeName, groupName } from "../chats/names";
import { createBundle } from "./create";
import type { BundleScope } from "./plan";
import { readBundle } from "./read";
import { Spool } from "./spool";

const temp = () => tempFolder("oda-bundle-stage-");

const scope: BundleScope = testScope();

describe("staging logs", () => {
  it("bundles a log damaged in the middle with every line before the damage, and the doctor report names it", async () => {
    const base = temp();
    const logs = join(base, "logs");
    const w = createChat(logs, { id: "c-damaged", cwd: "/home/ana/shop", created: "2026-11-01T10:00:00.000Z" });
    for (let t = 0; t < 3; t++)
      await w.appendTurn({ user: `question ${t}`, assistant: `answer ${t}`, ts: `2026-11-01T10:0${t}:00.000Z` });
    await w.close();
    const log = w.logPath;
    // One save is one frame: the last one's magic number is spoilt, so nothing from it on decodes.
    const bytes = readFileSync(log);
    const lastFrame = bytes.lastIndexOf(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
    expect(lastFrame).toBeGreaterThan(0);
    bytes.fill(0x55, lastFrame, lastFrame + 4);
    writeFileSync(log, bytes);

    const out = join(base, "bundle.tar.gz");
    const bundle = await createBundle({ home: null, logs }, scope, out, { version: "test" });
    const unpacked = join(base, "unpacked");
    await readBundle(out, unpacked);
    const inBundle = join(
      unpacked,
      "logs",
      groupName("/home/user-1/shop"),
      encodeName("c-damaged"),
      "session.v4.jsonl.zstd",
    );
    // It still cannot be read past its good frames (the problem support must see): zstd stops with an error.
    let text = "";
    expect(() => {
      try {
        execFileSync("zstd", ["-dcq", inBundle], { stdio: ["ignore", "pipe", "ignore"] });
      } catch (error) {
        text = String((error as { stdout?: Buffer }).stdout ?? "");
        throw error;
      }
    }).toThrow();
    expect(text).toContain("question 0");
    expect(text).toContain("answer 1");
    expect(text).not.toContain("/home/ana");
    const doctor = JSON.parse(readFileSync(join(unpacked, "doctor.json"), "utf8"));
    const problems = doctor.sections.flatMap((s: { problems: { message: string }[] }) => s.problems);
    expect(problems.some((p: { message: string }) => /cannot be read past byte/.test(p.message))).toBe(true);
    expect(bundle.manifest.counts.redactedFiles).toBeGreaterThan(0);
  });
});

describe("the spool of rewritten logs", () => {
  it("keeps each log as a range with its SHA-256 and tail hash, and cuts a discarded one off again", () => {
    const dir = temp();
    const spool = new Spool(join(dir, "spool"));
    const a = spool.begin();
    a.write(Buffer.from("first log, "));
    a.write(Buffer.from("two pieces\n"));
    const first = spool.finish();
    const b = spool.begin();
    b.write(Buffer.alloc(10_000, 0x61));
    spool.discard();
    const c = spool.begin();
    const big = Buffer.alloc(9000, 0x62);
    big.write("end", 8997);
    c.write(big.subarray(0, 5000));
    c.write(big.subarray(5000));
    const third = spool.finish();
    spool.close();
    const sha = (data: Buffer) => execFileSync("sha256sum", { input: data }).toString().slice(0, 64);
    const data = readFileSync(join(dir, "spool"));
    expect(data.length).toBe(22 + 9000);
    expect(first).toEqual({
      start: 0,
      size: 22,
      sha256: sha(data.subarray(0, 22)),
      tailSha256: sha(data.subarray(0, 22)),
    });
    expect(third.start).toBe(22);
    expect(third.sha256).toBe(sha(big));
    expect(third.tailSha256).toBe(sha(big.subarray(9000 - 4096)));
  });
});
