/**
 * A save the system refuses names the file it was writing (issue 24): a file-size limit (EFBIG, from
 * `ulimit -f` with SIGXFSZ ignored, as a full quota or a small file-size limit leaves it) and a folder the
 * process may not write (EACCES, the CLI run as an unprivileged user). Real processes through `bin/oda-admin`.
 */
import { execFile } from "node:child_process";
import { chmod, chown, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHome, memoryText, putFile } from "../../test-support/memory/testing";

const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));
const ID = "0a1b2c3d";
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

function sh(
  script: string,
  args: string[],
): Promise<{ code: number; json: { ok?: boolean; error?: { message: string } } }> {
  return new Promise((resolve) => {
    execFile("sh", ["-c", script, "sh", process.execPath, bin, ...args], { encoding: "utf8" }, (error, stdout) => {
      let json = {};
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, json });
    });
  });
}

let home: string;
let cleanup: () => Promise<void>;
let file: string;
beforeEach(async () => {
  ({ home, cleanup } = await makeHome());
  file = await putFile(home, `memory/global/${ID}`, memoryText("Reply language", "Short."));
});
afterEach(() => cleanup());

describe("a memory save the system refuses", () => {
  it("EFBIG names the memory file", async () => {
    // 1 block of 512 bytes: the new text makes the file larger, so its write fails with EFBIG.
    const run = await sh(`trap '' XFSZ; ulimit -f 1; exec "$@"`, [
      ...["memory", "set", ID, "--text", "x".repeat(1500), "--home", home, "--json"],
    ]);
    expect(run.code).toBe(1);
    expect(run.json.error?.message).toBe(
      `The memory could not be changed: the file system answered EFBIG (the file would be larger than this process may write) for ${file}.`,
    );
    expect(await readFile(file, "utf8")).toBe(memoryText("Reply language", "Short."));
  }, 60_000);

  it.skipIf(!asRoot)(
    "EACCES names the file or folder it could not write",
    async () => {
      // Everything readable by nobody; the global set's folder not writable by it.
      await mkdir(join(home, "memory-history"), { recursive: true });
      for (const p of [join(home, ".."), home, join(home, "memory"), join(home, "memory-history")]) {
        await chown(p, NOBODY, NOBODY);
        await chmod(p, 0o755);
      }
      await chown(file, NOBODY, NOBODY);
      await chmod(join(home, "memory/global"), 0o555);
      const run = await sh(`exec setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups env HOME=/tmp "$@"`, [
        ...["memory", "set", ID, "--text", "Longer.", "--home", home, "--state", join(home, "..", "state"), "--json"],
      ]);
      expect(run.code).toBe(1);
      expect(run.json.error?.message).toMatch(
        /^The memory could not be changed: the file system answered EACCES \(permission denied\) for \/.+\.$/,
      );
      expect(run.json.error?.message).toContain(home);
      expect(await readFile(file, "utf8")).toBe(memoryText("Reply language", "Short."));
    },
    60_000,
  );
});
