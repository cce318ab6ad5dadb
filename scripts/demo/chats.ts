import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeName, groupName } from "../../lib/chats";
import {
  appendCutSave,
  type ChatWriter,
  createChat,
  leaveDeadLock,
  upgradeToFormat4,
} from "../../test-support/chats/testing";
import type { Random } from "./random";

const FOLDERS = [
  "/home/ana/reports",
  "/home/ana/website",
  "/home/ana/research notes",
  "/srv/projects/data-pipeline",
  "/home/ana/Documents/Übersetzungen",
];

const TOPICS: {
  title: string;
  asks: string[];
  answers: string[];
  tool?: { name: string; input: object; result: string };
}[] = [
  {
    title: "Quarterly revenue summary",
    asks: ["Summarise Q3 revenue from finance/revenue.xlsx.", "Compare it with Q2, in one table."],
    answers: [
      "- Q3 revenue: 1 284 300 €\n- Up 6.2 % on Q2\n- Services grew fastest",
      "| Quarter | Revenue |\n| Q2 | 1 209 100 € |\n| Q3 | 1 284 300 € |",
    ],
    tool: {
      name: "read_spreadsheet",
      input: { path: "finance/revenue.xlsx", sheet: "Q-totals" },
      result: "Q2,1209100\nQ3,1284300",
    },
  },
  {
    title: "Fix the navigation bar on mobile",
    asks: ["The menu overlaps the logo under 400px. Fix it.", "Now check the colour contrast."],
    answers: [
      "I changed the header to wrap and moved the menu button to the right.",
      "All text passes AA; the footer links were 4.1:1, now 5.3:1.",
    ],
    tool: {
      name: "edit_file",
      input: { path: "src/components/Header.astro" },
      result: "1 file changed, 6 insertions(+), 3 deletions(-)",
    },
  },
  {
    title: "Reading notes: retrieval augmentation",
    asks: ["Summarise the RAG paper in five lines.", "What are its limits?"],
    answers: [
      "Problem: models forget facts.\nMethod: retrieve passages, then generate.\nResult: better open-domain QA.\nLimits: retrieval errors propagate.\nCost: a second index to maintain.",
      "It depends on the retriever's recall and adds latency.",
    ],
  },
  {
    title: "Pipeline failing on Mondays",
    asks: ["The nightly import fails every Monday. Why?", "Add a retry with backoff."],
    answers: [
      "The source API rotates its token on Mondays at 02:00; the job starts at 02:05 with the old one.",
      "Added three retries with exponential backoff and a token refresh before each.",
    ],
    tool: {
      name: "run_command",
      input: { command: "grep -c 401 logs/import-*.log" },
      result: "logs/import-2026-11-23.log:14",
    },
  },
  {
    title: "Translate the product sheet",
    asks: ["Translate the product sheet into German.", "Use the formal Sie."],
    answers: ["Here is the German version of the product sheet.", "Done: every du is now Sie."],
  },
];

const MODELS = ["oda-large-2026-10", "oda-small-2026-09"];

function chatId(random: Random, day: Date, n: number): string {
  return `c-${day.toISOString().slice(0, 10)}-${random.hex(2)}${n.toString(36)}`;
}

/** Writes one realistic format 4 chat through the writer: memory, title, turns with tool calls. */
async function writeConversation(writer: ChatWriter, random: Random, start: number, turns: number): Promise<number> {
  const topic = random.pick(TOPICS);
  let t = start;
  const ts = () => {
    t += random.int(2, 90) * 1000;
    return new Date(t).toISOString();
  };
  const model = random.pick(MODELS);
  await writer.appendEvents([
    { type: "memory", ts: ts(), mode: "full", text: "## Reply language\nReply in short bullet points." },
  ]);
  for (let i = 0; i < turns; i++) {
    const ask = topic.asks[i % topic.asks.length] as string;
    const answer = topic.answers[i % topic.answers.length] as string;
    const events: Record<string, unknown>[] = [
      { type: "message", ts: ts(), role: "user", content: [{ type: "text", text: ask }] },
    ];
    if (topic.tool && i === 0) {
      const id = `toolu_${random.hex(8)}`;
      events.push(
        {
          type: "message",
          ts: ts(),
          role: "assistant",
          content: [{ type: "tool_use", id, name: topic.tool.name, input: topic.tool.input }],
          model,
          usage: { input_tokens: random.int(800, 2400), output_tokens: random.int(20, 80) },
        },
        {
          type: "message",
          ts: ts(),
          role: "user",
          content: [{ type: "tool_result", tool_use_id: id, content: topic.tool.result, is_error: false }],
        },
      );
    }
    events.push({
      type: "message",
      ts: ts(),
      role: "assistant",
      content: [{ type: "text", text: answer }],
      model,
      usage: { input_tokens: random.int(900, 4000), output_tokens: random.int(40, 400) },
    });
    if (i === 0) events.push({ type: "title", ts: ts(), title: topic.title });
    if (i === 1 && random.chance(0.3)) {
      events.push({
        type: "memory",
        ts: ts(),
        mode: "note",
        text: "Changed: Units — now metric with km. The rest of the memory is unchanged.",
      });
    }
    events.push({ type: "turn_end", ts: ts() });
    await writer.appendEvents(events);
    writer.writeCheckpoint(); // the seed: a checkpoint at the end of each turn
  }
  return t;
}

/**
 * Writes the demo log folder through `lib/chats`' writer: about 200 chats
 * across several working folders and `_no-cwd`, and one chat for each case
 * an administrator meets (see the list in the function body).
 */
export async function makeDemoChats(logs: string, random: Random, count = 200): Promise<{ liveChat: string }> {
  const base = Date.parse("2026-10-01T08:00:00.000Z");
  const ids: { id: string; cwd: string | null; dir: string }[] = [];
  for (let n = 0; n < count; n++) {
    const start = base + random.int(0, 58 * 24 * 3600) * 1000;
    const cwd = random.chance(0.1) ? null : random.pick(FOLDERS);
    const id = chatId(random, new Date(start), n);
    const writer = createChat(logs, { id, cwd, created: new Date(start).toISOString() });
    await writeConversation(writer, random, start, random.int(1, 6));
    await writer.close();
    ids.push({ id, cwd, dir: writer.dir });
  }
  const special = (name: string, cwd: string | null = FOLDERS[0] as string) => {
    const start = base + 59 * 24 * 3600 * 1000 + random.int(0, 3600) * 1000;
    const id = `c-demo-${name}`;
    return { writer: createChat(logs, { id, cwd, created: new Date(start).toISOString() }), start, id };
  };

  // A format 1 log with a format 4 one added beside it by an upgrade.
  {
    const { writer, id } = special("upgraded", FOLDERS[1]);
    const old = createChat(logs, { id, cwd: writer.identity.cwd, created: writer.identity.created }, { format: 1 });
    await old.appendEvents([
      { time: "2026-11-28T09:00:00.000Z", role: "user", text: "Where did we leave the homepage redesign?" },
      { time: "2026-11-28T09:00:04.000Z", role: "assistant", text: "The hero section is done; the footer is next." },
    ]);
    await old.close();
    await upgradeToFormat4(logs, id);
  }
  // The chat a running copy of Oda writes (scripts/demo/live-writer.ts holds its lock while npm start runs).
  const live = special("being-written", FOLDERS[3]);
  await writeConversation(live.writer, random, live.start, 2);
  live.writer.abandon(); // its lock stays; the live writer takes it over
  // A stale lock: the copy of Oda holding it crashed.
  {
    const { writer, start } = special("stale-lock", FOLDERS[2]);
    await writeConversation(writer, random, start, 2);
    writer.abandon();
    leaveDeadLock(writer.dir);
  }
  // A crash in the middle of a save: the last zstd frame is cut off.
  {
    const { writer, start } = special("cut-frame", FOLDERS[3]);
    await writeConversation(writer, random, start, 2);
    await appendCutSave(
      writer,
      [
        {
          type: "message",
          ts: new Date(start + 600_000).toISOString(),
          role: "assistant",
          content: [{ type: "text", text: "The import job now retries three times, wi".repeat(20) }],
        },
      ],
      (length) => Math.floor(length * 0.6),
    );
    leaveDeadLock(writer.dir);
  }
  // A checkpoint that is behind the log (a save after the last checkpoint).
  {
    const { writer, start } = special("checkpoint-behind", FOLDERS[0]);
    await writeConversation(writer, random, start, 2);
    await writer.appendEvents([
      {
        type: "message",
        ts: new Date(start + 900_000).toISOString(),
        role: "user",
        // A fake e-mail, address and key, so that a support bundle's preview of the demo shows every kind.
        content: [
          {
            type: "text",
            text: "One more thing: add the Q4 forecast, mail it to dana.ortiz@example.com and upload it to 10.0.4.21 with deploy_token = Zx81mQ2vL7pW4nR9tK3sB6yD.",
          },
        ],
      },
    ]);
    writer.releaseLock();
  }
  // A checkpoint that no longer fits its log (its tail hash is wrong).
  {
    const { writer, start } = special("checkpoint-mismatch", FOLDERS[1]);
    await writeConversation(writer, random, start, 2);
    await writer.close();
    const path = join(writer.dir, "session.cache.json");
    const cache = JSON.parse(readFileSync(path, "utf8"));
    cache.log.tailSha256 = "0".repeat(64);
    writeFileSync(path, `${JSON.stringify(cache)}\n`);
  }
  // A checkpoint that cannot be read.
  {
    const { writer, start } = special("checkpoint-unreadable", null);
    await writeConversation(writer, random, start, 1);
    await writer.close();
    writeFileSync(join(writer.dir, "session.cache.json"), '{"cacheFormat": 1, "identity": {');
  }
  // The same chat stored in two places.
  {
    const { writer, start, id } = special("two-places", FOLDERS[0]);
    await writeConversation(writer, random, start, 1);
    await writer.close();
    cpSync(writer.dir, join(logs, groupName(FOLDERS[1] as string), encodeName(id)), { recursive: true });
  }
  return { liveChat: live.id };
}
