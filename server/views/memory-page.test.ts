import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "@/test-support/memory/test-home";
import { memoryText, putFile } from "@/test-support/memory/testing";
import { loadEditorMemory } from "./memory-page";

let home: string;
freshHomePerTest((h) => (home = h));

describe("the memory editor page's data", () => {
  it("refuses a memory that is a symlink leading outside the home with the CLI's sentence, not a 500", async () => {
    await putFile(home, "memory/global/0000000a", memoryText("Fine", "text"));
    const outside = join(home, "..", "outside");
    await writeFile(outside, memoryText("Secret", "not in the home"));
    await symlink(outside, join(home, "memory", "global", "0000000b"));
    expect(await loadEditorMemory(home, null, "0000000b")).toEqual({
      kind: "refused",
      message: "That path is outside the Oda home.",
    });
    expect(await loadEditorMemory(home, null, "0000000a")).toEqual({ kind: "found" });
    expect(await loadEditorMemory(home, null, "0000000c")).toEqual({ kind: "missing" });
    expect(await loadEditorMemory(home, null, "../x")).toEqual({ kind: "missing" });
  });
});

describe("where a memory came from", () => {
  it("names the chat of a memory the agent saved, and none for one a person wrote", async () => {
    await putFile(
      home,
      "memory/global/0000000d",
      "---\ntitle: From a chat\nenabled: true\nsource: ai\nsessionId: c-2026-11-02-7f3c\n---\n\nText.\n",
    );
    await putFile(
      home,
      "memory/global/0000000e",
      "---\ntitle: Typed\nenabled: true\nsource: user\nsessionId: c-2026-11-02-7f3c\n---\n\nText.\n",
    );
    expect(await loadEditorMemory(home, null, "0000000d")).toEqual({ kind: "found", chat: "c-2026-11-02-7f3c" });
    expect(await loadEditorMemory(home, null, "0000000e")).toEqual({ kind: "found" });
  });
});
