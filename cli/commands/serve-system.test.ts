import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { choosePort, openBrowser } from "./serve-system";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function listening(): Promise<{ server: Server; port: number }> {
  return new Promise((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      done({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

describe("choosePort", () => {
  it("turns 0 into a real free port", async () => {
    const port = await choosePort("0");
    expect(port).toBeGreaterThan(0);
  });

  it("keeps a given port even when it is taken: the server then says so", async () => {
    const { server, port } = await listening();
    cleanups.push(() => server.close());
    expect(await choosePort(String(port))).toBe(port);
  });

  it("refuses what is not a port", async () => {
    for (const wanted of ["-1", "65536", "80a", ""])
      await expect(choosePort(wanted)).rejects.toThrow("--port takes a port number from 0 to 65535");
  });
});

describe.runIf(process.platform === "linux")("openBrowser", () => {
  it("runs the system's opener with the URL", async () => {
    const bin = mkdtempSync(join(tmpdir(), "oda-open-"));
    cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
    const seen = join(bin, "seen");
    // Only shell built-ins: PATH holds nothing but this folder.
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > "${seen}"\n`);
    chmodSync(join(bin, "xdg-open"), 0o755);
    const path = process.env.PATH;
    process.env.PATH = bin;
    cleanups.push(() => {
      process.env.PATH = path;
    });
    expect(openBrowser("http://127.0.0.1:4377/?token=abc")).toBe(true);
    await expect
      .poll(() => (existsSync(seen) ? readFileSync(seen, "utf8") : ""), { timeout: 30_000 })
      .toBe("http://127.0.0.1:4377/?token=abc");
  });

  it("says so when the system has no way to open a browser", () => {
    const path = process.env.PATH;
    process.env.PATH = mkdtempSync(join(tmpdir(), "oda-empty-"));
    cleanups.push(() => {
      process.env.PATH = path;
    });
    expect(openBrowser("http://127.0.0.1:4377/")).toBe(false);
  });
});
