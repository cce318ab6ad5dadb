import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "@/test-support/chats/test-helpers";
import { tempFolder } from "@/test-support/test-temp";

/**
 * The decode worker does not keep an idle process alive, but a process
 * awaiting one of its replies (a script, a bench, the CLI) must not end
 * before the reply comes: a real Node process runs one read on it and exits.
 */

const root = process.cwd();

describe("a process awaiting the decode worker", () => {
  it("gets the reply and then ends by itself", () => {
    const script = join(tempFolder("oda-log-worker-ref-"), "read.mts");
    writeFileSync(
      script,
      `import { inWorker } from ${JSON.stringify(pathToFileURL(join(root, "server", "workers", "log-worker.ts")).href)};
const read = await inWorker("chatDetails", ${JSON.stringify(join(FIXTURES, "logs"))}, "c-2026-11-29-a1", true, 1e9);
console.log(JSON.stringify({ id: read.chat.id, readWhole: read.readWhole }));
`,
    );
    const run = spawnSync(
      process.execPath,
      ["--import", pathToFileURL(join(root, "scripts", "node-shim", "register.mjs")).href, "--import", "tsx", script],
      { cwd: root, encoding: "utf8", timeout: 120_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: "c-2026-11-29-a1", readWhole: true });
  }, 150_000);
});
