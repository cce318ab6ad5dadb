import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHome, memoryText, putFile } from "../../test-support/memory/testing";
import { runMain as run } from "../../test-support/run-cli";

const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeHome());
  await putFile(home, "memory/global/00000001", memoryText("Reply language", "Reply in **short** bullet points."));
  await putFile(home, "memory/workspaces/dup/00000002", memoryText("Replies", "reply in short bullet points."));
  await putFile(home, "memory/workspaces/ok/00000003", memoryText("Tests", "Run vitest before pushing."));
});
afterEach(() => cleanup());

describe("oda-admin memory lint", () => {
  it("exits 1 with findings, naming the memories, and 0 for a healthy workspace", async () => {
    const all = await run("memory", "lint", "--all", "--home", home);
    expect(all.code).toBe(1);
    expect(all.out).toBe(
      [
        "duplicate  the same text, sent twice to one chat",
        '  00000001 (global) "Reply language"',
        '  00000002 (workspace dup) "Replies"',
        "",
        "1 findings in 3 memories: 1 exact.",
      ].join("\n"),
    );
    const ok = await run("memory", "lint", "--workspace", "ok", "--home", home);
    expect(ok).toEqual({ code: 0, out: "No findings in 2 memories.", err: "" });
    const json = JSON.parse((await run("memory", "lint", "--workspace", "dup", "--home", home, "--json")).out);
    expect(json).toMatchObject({ ok: true, sets: [null, "dup"], counts: { exact: 1 } });
  });

  it("refuses a workspace with no set (1), and usage errors (2)", async () => {
    expect(await run("memory", "lint", "--workspace", "nowhere", "--home", home)).toMatchObject({
      code: 1,
      err: "No memory set exists for workspace nowhere.",
    });
    expect(await run("memory", "lint", "--workspace", "ok", "--all", "--home", home)).toMatchObject({
      code: 2,
      err: "Give --workspace KEY or --all, not both.",
    });
    expect(await run("memory", "lint", "extra", "--home", home)).toMatchObject({ code: 2 });
    expect(await run("memory", "lint", "--off-days", "soon", "--home", home)).toMatchObject({ code: 2 });
    expect(await run("memory", "lint", "--bogus", "--home", home)).toMatchObject({ code: 2 });
  });

  it("reports a memory off for longer than --off-days", async () => {
    await putFile(
      home,
      "memory/workspaces/ok/00000004",
      memoryText("Old", "Use tabs.", "enabled: false\nsource: user\nupdated: 2020-01-01T00:00:00.000Z\n"),
    );
    const r = await run("memory", "lint", "--workspace", "ok", "--home", home, "--json");
    expect(JSON.parse(r.out).counts.off).toBe(1);
    expect(r.code).toBe(1);
  });

  it("sets the process's exit status through the real binary", async () => {
    const code = (args: string[]) =>
      new Promise<number>((resolve) =>
        execFile(process.execPath, [bin, "memory", "lint", "--home", home, ...args], (error) =>
          resolve(error ? ((error as { code?: number }).code ?? -1) : 0),
        ),
      );
    expect(
      await Promise.all([code(["--all"]), code(["--workspace", "ok"]), code(["--all", "--workspace", "ok"])]),
    ).toEqual([1, 0, 2]);
  });
});
