import { readdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import type { ChatSummary } from "./chat";
import { listAllChats } from "./list";
import { encodeName } from "./names";
import { openListingMemory } from "./remembered";

/**
 * The listing's memory over several batches (`remembered.ts`, `serve`; the contract's "What Oda Admin may
 * remember between listings"): every served chat's three identities are checked, a change to any one of
 * them makes that chat, and only it, verified again, and the chats and problems come in the listing's
 * order, as a listing without memory gives them.
 */

const OLD = new Date(Date.now() - 3600_000);
const GROUP = `--${encodeName("/home/ana/reports")}--`;

function age(dir: string): void {
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    if (name.isDirectory()) age(path);
    else utimesSync(path, OLD, OLD);
  }
  utimesSync(dir, OLD, OLD);
}

/** Every chat, listed two a batch (several batches, read ahead), with the memory in `state` or none. */
async function list(logs: string, state: string | null) {
  const memory = openListingMemory(state, true);
  try {
    return await listAllChats(logs, { memory, batchSize: 2 });
  } finally {
    memory?.close();
  }
}

const served = (chats: ChatSummary[]) =>
  Object.fromEntries(chats.map((c) => [c.id, c.remembered ? "memory" : c.cached ? "verified" : "rebuilt"]));
const strip = (chats: ChatSummary[]) => chats.map(({ remembered: _r, ...rest }) => rest);

describe("the listing's memory over several batches", () => {
  it("checks each served chat's folder, log and checkpoint: one changed of each, only those read again, in order", async () => {
    const logs = tempDir();
    const state = join(tempDir(), "state");
    const ids = ["m-0", "m-1", "m-2", "m-3", "m-4", "m-5", "m-6"];
    for (const id of ids) {
      const w = createChat(logs, { id, cwd: "/home/ana/reports" });
      await w.appendTurn({ user: `question for ${id}`, assistant: `answer for ${id}` });
      await w.close();
    }
    // A folder-level problem, so the order of problems is compared too.
    writeFileSync(join(logs, GROUP, "not-a-chat"), "");
    age(logs);
    await list(logs, state);
    const second = await list(logs, state);
    expect(Object.values(served(second.chats))).toEqual(ids.map(() => "memory"));
    const dir = (id: string) => join(logs, GROUP, encodeName(id));
    // m-1: the folder (renamed away and back, its times kept); m-3: the log; m-5: the checkpoint.
    renameSync(dir("m-1"), `${dir("m-1")}.away`);
    renameSync(`${dir("m-1")}.away`, dir("m-1"));
    const earlier = new Date(OLD.getTime() - 60_000);
    utimesSync(join(dir("m-3"), "session.v4.jsonl.zstd"), earlier, earlier);
    utimesSync(join(dir("m-5"), "session.cache.json"), earlier, earlier);
    utimesSync(join(logs, GROUP), OLD, OLD);
    const after = await list(logs, state);
    expect(served(after.chats)).toEqual({
      "m-0": "memory",
      "m-1": "verified",
      "m-2": "memory",
      "m-3": "verified",
      "m-4": "memory",
      "m-5": "verified",
      "m-6": "memory",
    });
    const plain = await list(logs, null);
    expect(after.chats.map((c) => c.id)).toEqual(plain.chats.map((c) => c.id));
    expect(strip(after.chats)).toEqual(strip(plain.chats));
    expect(after.problems).toEqual(plain.problems);
    expect(after.problems.length).toBeGreaterThan(0);
  });
});
