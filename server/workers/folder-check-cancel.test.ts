import { afterAll, describe, expect, it } from "vitest";
import { CHECK_CANCELLED, refreshIndex } from "@/lib/search-index";
import { createChat, settleFolder } from "@/test-support/chats/testing";
import { tempIndexRoots } from "@/test-support/search-index/test-roots";
import { abandonableInWorker, setIdleEnd } from "./log-worker";

/** The folder check on a real decode thread, told through its shared flag that nobody waits (issue 28). */

const roots = tempIndexRoots("oda-folder-check-cancel-");
setIdleEnd(100);
afterAll(() => setIdleEnd(10_000));

describe("the folder check on the decode worker", () => {
  it("stops at its walk's first look when its signal aborted, and runs to its verdict otherwise", async () => {
    const { logs, state } = roots();
    for (const id of ["c-1", "c-2"]) {
      const w = createChat(logs, { id, cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" });
      await w.appendTurn({ user: "Question", assistant: "Answer", ts: "2026-11-20T09:01:00.000Z" });
      await w.close();
    }
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    const gone = new AbortController();
    gone.abort();
    await expect(abandonableInWorker(gone.signal, "indexFreshness", state, logs)).rejects.toThrow(CHECK_CANCELLED);
    const waited = new AbortController();
    expect(await abandonableInWorker(waited.signal, "indexFreshness", state, logs)).toMatchObject({
      fresh: true,
      total: 2,
    });
  }, 60_000);
});
