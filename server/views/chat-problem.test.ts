import { cpSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { problemAt, walkLogFolder, withRawLog } from "@/lib/chats";
import { tempDir } from "@/test-support/chats/test-helpers";
import { createChat } from "@/test-support/chats/testing";
import { toChatProblem } from "./chat-list";

describe("a problem as the chat list shows it", () => {
  it("names the log files of both copies of a chat stored in two places, and the chat", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "c1", cwd: "/home/ana", created: "2026-11-29T18:00:00.000Z" });
    await w.appendTurn({ user: "Hello", assistant: "Hi", ts: "2026-11-29T18:00:01.000Z" });
    await w.close();
    const copy = join(dir, "_no-cwd", "c1");
    cpSync(w.dir, copy, { recursive: true });
    const [problem] = walkLogFolder(dir).problems.map(toChatProblem);
    expect(problem).toEqual({
      kind: "duplicate",
      message: `Chat "c1" is stored in two places: ${w.dir} and ${copy}.`,
      sentence: `Chat "c1" is stored in two places: ${w.dir} and ${copy}.`,
      paths: [join(w.dir, "session.v4.jsonl.zstd"), join(copy, "session.v4.jsonl.zstd")],
      chat: "c1",
    });
  });

  it("shows the raw log note apart from the sentence, even when the sentence itself says 'raw log: '", () => {
    const path = "/logs/--%2Fsrv--/c2/session.v4.jsonl.zstd";
    const sentence =
      'The log\'s header names chat "a raw log: b" working in /srv, but it is stored as chat "c2" under --%2Fsrv--.';
    const problem = toChatProblem(problemAt("identity", path, withRawLog(sentence, path)));
    expect(problem).toMatchObject({ sentence, paths: [path], message: `${sentence} raw log: ${path}` });
    // Without a note, every path the problem names is shown as a raw log.
    expect(toChatProblem(problemAt("no-log", "/logs/_no-cwd/c3", "The chat folder holds no log."))).toMatchObject({
      sentence: "The chat folder holds no log.",
      paths: ["/logs/_no-cwd/c3"],
    });
  });
});
