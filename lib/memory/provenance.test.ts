import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock } from "../../test-support/memory/testing";
import { changeMemory, createMemory, deleteMemory } from "./change";
import { chatMemories } from "./provenance";
import { listVersions } from "./versions";
import { createWorkspaceSet } from "./workspace-set";

let home: string;
freshHomePerTest((h) => {
  home = h;
});

const CHAT = "7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21";
const OTHER = "c-2026-11-29-b2";

describe("the memories a chat saved or changed", () => {
  it("lists each memory with the versions holding what the chat wrote, current or not, deleted or not", async () => {
    const now = makeClock("2026-11-29T18:00:00.000Z", 60_000);
    const chat = { source: "chat" as const, sessionId: CHAT, now };
    await createWorkspaceSet(home, "reports");
    // saved by the chat, then changed in Settings: the chat's text is a version, not current
    const a = (await createMemory(home, null, { title: "Reply language", text: "Short." }, chat)).memory?.id as string;
    await changeMemory(home, null, a, { text: "Long." }, { now });
    // changed by the chat and still current
    const b = (await createMemory(home, "reports", { title: "Charts", text: "Blue." }, { now })).memory?.id as string;
    await changeMemory(home, "reports", b, { text: "Green." }, chat);
    // changed by another chat only
    const c = (await createMemory(home, "reports", { title: "Other", text: "x" }, { now })).memory?.id as string;
    await changeMemory(home, "reports", c, { text: "y" }, { source: "chat", sessionId: OTHER, now });
    // saved by the chat, then deleted
    const d = (await createMemory(home, "reports", { title: "Gone", text: "z" }, chat)).memory?.id as string;
    await deleteMemory(home, "reports", d, { now });

    const chatVersions = async (ws: string | null, id: string) =>
      (await listVersions(home, ws, id)).filter((v) => v.source === "chat").map((v) => v.name);
    expect(await chatMemories(home, CHAT)).toEqual(
      [
        {
          workspace: null,
          id: a,
          title: "Reply language",
          current: false,
          deleted: false,
          versions: await chatVersions(null, a),
        },
        { workspace: "reports", id: b, title: "Charts", current: true, deleted: false, versions: [] },
        {
          workspace: "reports",
          id: d,
          title: "Gone",
          current: false,
          deleted: true,
          versions: await chatVersions("reports", d),
        },
      ].sort((x, y) =>
        (x.workspace ?? "") < (y.workspace ?? "")
          ? -1
          : (x.workspace ?? "") > (y.workspace ?? "")
            ? 1
            : x.id < y.id
              ? -1
              : 1,
      ),
    );
    expect((await chatMemories(home, CHAT))[0]?.versions).toHaveLength(1);
    expect((await chatMemories(home, OTHER)).map((m) => m.id)).toEqual([c]);
    expect(await chatMemories(home, "no-such-chat")).toEqual([]);
  });
});
