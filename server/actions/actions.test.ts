import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Every lib call that changes a file of the roots; an action making one must be refused while a bundle is shown.
// `setAsideHomeLock(home, state, true)` is its dry run (the preview), which changes nothing.
const WRITES =
  /\b(?:(createMemory|changeMemory|setEnabled|deleteMemory|restoreVersion|restoreDeleted|undoChatChange|saveRawMemoryFile|writeSettings|freeStaleLock|prepareBundle|startBundleJob|applyRepair|undoRepair|startFormJob)\(|setAsideHomeLock\((?![^\n]*, true\)))/;
const ACTIONS = import.meta.dirname;
const READS = join(import.meta.dirname, "..", "reads");

/** Each exported function of the `.ts` files of a folder, with its body. */
function functionsOf(dir: string): { file: string; name: string; body: string }[] {
  const found: { file: string; name: string; body: string }[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    for (const part of source.split(/\nexport (?:async )?function /).slice(1)) {
      found.push({ file, name: part.slice(0, part.indexOf("(")), body: part.slice(0, part.indexOf("\n}\n") + 1) });
    }
  }
  return found;
}

describe("server actions while a support bundle is shown", () => {
  it("mark every action that writes with { writes: true }, so runAction refuses it in the server", () => {
    const unmarked: string[] = [];
    let writers = 0;
    for (const { file, name, body } of functionsOf(ACTIONS)) {
      if (!WRITES.test(body)) continue;
      writers++;
      if (!/\{\s*writes: true,?\s*\}/.test(body)) unmarked.push(`${file}: ${name}`);
    }
    expect(unmarked).toEqual([]);
    expect(writers).toBeGreaterThanOrEqual(14);
  });

  it("are for writes only: every read is a plain function of server/reads/, read through GET", () => {
    // Each action that is not marked `writes` changes something all the same, or carries more than an address holds.
    const notWrites = functionsOf(ACTIONS)
      .filter(({ body }) => !/\{\s*writes: true,?\s*\}/.test(body))
      .map(({ file, name }) => `${file}: ${name}`)
      .sort();
    expect(notWrites).toEqual([
      "bundle.ts: closeBundleAction", // closes an opened bundle (the registry of sources)
      "bundle.ts: openBundleAction", // unpacks into the admin state and adds a source
      "memory.ts: previewNoteAction", // changes nothing, but carries a draft of up to 1 MB
      "notes.ts: addNoteAction", // writes the source's own admin state (a bundle's too)
      "notes.ts: removeNoteAction",
      "search.ts: refreshIndexAction", // rebuilds the index in the admin state
    ]);
  });

  it("leave the reads nothing to write with", () => {
    const reads = functionsOf(READS);
    expect(reads.length).toBeGreaterThanOrEqual(20);
    expect(reads.filter(({ body }) => WRITES.test(body)).map(({ file, name }) => `${file}: ${name}`)).toEqual([]);
  });
});
