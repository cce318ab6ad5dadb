import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  changeMemory,
  createMemory,
  deleteMemory,
  listVersions,
  restoreVersion,
  setEnabled,
  undoChatChange,
  writeSettings,
} from "../../lib/memory";
import { makeDemoClock, type Random } from "./random";

/** The demo's memory sets: a global set and three workspaces, about 30 memories. */
const SETS: { workspace: string | null; memories: [string, string][] }[] = [
  {
    workspace: null,
    memories: [
      ["Reply language", "Reply in short bullet points, in English unless I write in another language."],
      ["Units", "Use metric units, and give temperatures in °C."],
      ["Time zone", "I work in Lisbon (Europe/Lisbon). Give times in that zone."],
      ["Name", "Call me Ana."],
      ["Code style", "Prefer TypeScript with strict mode; explain a change before making it."],
      ["Dates", "Write dates as 29 Nov 2026, never as 11/29/2026."],
      ["Tone", "Be direct. No apologies, no filler."],
    ],
  },
  {
    workspace: "reports",
    memories: [
      ["Quarterly report layout", "Sections: summary, revenue, costs, risks. Keep each under one page."],
      ["Revenue source", "Revenue figures come from finance/revenue.xlsx, sheet 'Q-totals'."],
      ["Charts", "Bar charts for comparisons, lines for trends; label every axis."],
      ["Audience", "The board reads these reports; avoid jargon and acronyms."],
      ["Currency", "Amounts in EUR with thousands separators: 12 400 €."],
      ["Reviewer", "Send drafts to Marta for review before Friday noon."],
      ["Rounding", "Round percentages to one decimal place."],
    ],
  },
  {
    workspace: "website",
    memories: [
      ["Stack", "The site is Astro 5 with Tailwind; deploys from the main branch."],
      ["Accessibility", "Every image needs alt text; check colour contrast AA."],
      ["Copy voice", "Friendly and plain; second person; sentences under 20 words."],
      ["Staging", "Preview changes on staging.example.test before publishing."],
      ["Image sizes", "Hero images 1600×900, WebP, under 200 KB."],
      ["Analytics", "Do not add third-party trackers."],
    ],
  },
  {
    workspace: "research-notes",
    memories: [
      ["Citation style", "Cite as (Author, Year) and keep a reference list at the end."],
      ["Sources", "Prefer peer-reviewed sources published after 2018."],
      ["Note format", "One idea per note, with a short title and links to related notes."],
      ["Reading list", "Current reading: attention in transformers, retrieval augmentation."],
      ["Summaries", "Summaries of papers: problem, method, result, limits — 5 lines."],
    ],
  },
];

const put = async (home: string, relative: string, data: string | Uint8Array) => {
  const path = join(home, relative);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, data);
};

/**
 * Writes the demo memories through `lib/memory` (the same code the dashboard
 * uses): histories holding every source, one recently deleted memory, and one
 * hand-written file for each problem in the contract's table.
 */
export async function makeDemoMemories(home: string, random: Random): Promise<void> {
  const now = makeDemoClock(random, "2026-10-01T08:00:00.000Z");
  await writeSettings(home, {});
  const ids = new Map<string, { workspace: string | null; id: string }>();
  for (const set of SETS) {
    for (const [title, text] of set.memories) {
      const fromChat = random.chance(0.35);
      const id = random.hex(8);
      await createMemory(
        home,
        set.workspace,
        { title, text },
        fromChat
          ? {
              id,
              now,
              source: "chat",
              sessionId: `c-2026-10-${String(random.int(1, 28)).padStart(2, "0")}-${random.hex(4)}`,
            }
          : { id, now },
      );
      ids.set(title, { workspace: set.workspace, id });
    }
  }
  const at = (title: string) => ids.get(title) as { workspace: string | null; id: string };
  // Every scripted edit names a memory by its place; settings edits unless the options say otherwise.
  const edit = (
    m: { workspace: string | null; id: string },
    change: Parameters<typeof changeMemory>[3],
    options: Parameters<typeof changeMemory>[4] = { now },
  ) => changeMemory(home, m.workspace, m.id, change, options);

  // Settings edits and chat edits build history.
  const units = at("Units");
  await edit(units, { text: "Use metric units; temperatures in °C; distances in km." });
  await edit(units, { title: "Units and measures" }, { now, source: "chat", sessionId: "c-2026-11-02-7f3c" });

  // A restore: the layout memory goes back to its first text.
  const layout = at("Quarterly report layout");
  await edit(layout, { text: "Sections: summary, revenue, costs. One page each." });
  const versions = await listVersions(home, layout.workspace, layout.id);
  const first = versions[versions.length - 1];
  if (first) await restoreVersion(home, layout.workspace, layout.id, first.name, { now });
  // A later edit keeps the restored state as a `restore` version.
  await edit(layout, { text: "Sections: summary, revenue, costs, risks, outlook. Keep each under one page." });

  // An undo of a chat change.
  const tone = at("Tone");
  await edit(tone, { text: "Be warm and chatty." }, { now, source: "chat", sessionId: "c-2026-11-03-91aa" });
  await undoChatChange(home, tone.workspace, tone.id, { now });
  await edit(tone, { text: "Be direct. No apologies, no filler, no emoji." });

  // An edit made outside the app, then saved again in Settings: the outside text is kept as `external`.
  const charts = at("Charts");
  await put(
    home,
    `memory/workspaces/reports/${charts.id}`,
    "---\ntitle: Charts\nenabled: true\nsource: user\n---\n\nBar charts for comparisons, lines for trends, no pie charts.\n",
  );
  await edit(charts, { text: "Bar charts for comparisons, lines for trends; no pie charts; label every axis." });

  // A file created outside the app, then edited in Settings: its first text is kept as `found`.
  await put(
    home,
    "memory/workspaces/website/0f0f0f0f",
    "---\ntitle: Fonts\nenabled: true\nsource: user\n---\n\nUse the system font stack.\n",
  );
  await changeMemory(home, "website", "0f0f0f0f", { text: "Use the system font stack; no web fonts." }, { now });
  // And one left as found, never saved by the app.
  await put(
    home,
    "memory/workspaces/research-notes/0a0b0c0d",
    "---\ntitle: Glossary\nenabled: true\nsource: user\n---\n\nRAG: retrieval-augmented generation.\n",
  );

  // Off, and recently deleted.
  const analytics = at("Analytics");
  await setEnabled(home, analytics.workspace, analytics.id, false, { now });
  const reviewer = at("Reviewer");
  await deleteMemory(home, reviewer.workspace, reviewer.id, { now });

  // One file for each problem in the contract's table, and a file that is not a memory.
  await put(
    home,
    "memory/global/e0000001",
    `---\ntitle: Huge\nenabled: true\nsource: user\n---\n\n${"x".repeat(70_000)}\n`,
  );
  await put(home, "memory/global/e0000002", Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]));
  await put(home, "memory/workspaces/reports/e0000003", "title: No block\nenabled: true\n\nForgot the dashes.\n");
  await put(
    home,
    "memory/workspaces/reports/e0000004",
    "---\ntitle: [unclosed\nenabled: true\nsource: user\n---\n\nBroken YAML.\n",
  );
  await put(
    home,
    "memory/workspaces/website/e0000005",
    "---\ntitle: Missing fields\nenabled: maybe\n---\n\nNo source, and enabled is not a boolean.\n",
  );
  await put(
    home,
    "memory/workspaces/research-notes/e0000006",
    `---\ntitle: Too long\nenabled: true\nsource: user\n---\n\n${"A long note. ".repeat(200)}\n`,
  );
  await put(home, "memory/global/notes.txt", "Scratch notes: not a memory (the name is not an id).\n");
}
