import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Every lib call that changes a file of the roots; an action making one must be refused while a bundle is shown.
// `setAsideHomeLock(home, state, true)` is its dry run (the preview), which changes nothing.
const WRITES =
  /\b(?:(createMemory|changeMemory|setEnabled|deleteMemory|restoreVersion|restoreDeleted|undoChatChange|saveRawMemoryFile|writeSettings|freeStaleLock|prepareBundle|startBundleJob|applyRepair|undoRepair|startFormJob)\(|setAsideHomeLock\((?![^\n]*, true\)))/;
const ACTIONS = join(import.meta.dirname, "..", "app", "_actions");

describe("server actions while a support bundle is shown", () => {
  it("mark every action that writes with { writes: true }, so runAction refuses it in the server", () => {
    const unmarked: string[] = [];
    let writers = 0;
    for (const file of readdirSync(ACTIONS).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const source = readFileSync(join(ACTIONS, file), "utf8");
      for (const part of source.split(/\nexport async function /).slice(1)) {
        const name = part.slice(0, part.indexOf("("));
        const body = part.slice(0, part.indexOf("\n}\n") + 1);
        if (!WRITES.test(body)) continue;
        writers++;
        if (!/\{\s*writes: true,?\s*\}/.test(body)) unmarked.push(`${file}: ${name}`);
      }
    }
    expect(unmarked).toEqual([]);
    expect(writers).toBeGreaterThanOrEqual(14);
  });
});
