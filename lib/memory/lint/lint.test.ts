import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHome, memoryText, putFile } from "../../../test-support/memory/testing";
import { chatPayload } from "../payload";
import { normaliseForCompare, similarity, wordsOf } from "./compare";
import { type LintFinding, lintMemory, lintSets } from "./index";

const NOW = new Date("2026-11-29T12:00:00.000Z");
const on = "enabled: true\nsource: user\ncreated: 2026-11-01T00:00:00.000Z\n";
const put = (home: string, set: string, id: string, title: string, text: string, extra = on) =>
  putFile(home, `memory/${set}/${id}`, memoryText(title, text, extra));

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ home, cleanup } = await makeHome()));
afterEach(() => cleanup());

/** A home planting one of each finding, and one healthy workspace. */
async function plant(): Promise<void> {
  await put(home, "global", "00000001", "Reply language", "Reply in **short** bullet points.");
  // exact, across the global set and a workspace (case, white space, emphasis set aside)
  await put(home, "workspaces/dup", "00000011", "Replies", "reply in short   _bullet_ points.");
  // exact, within one set
  await put(home, "workspaces/dup", "00000012", "Package manager", "Use pnpm, never npm_install.");
  await put(home, "workspaces/dup", "00000013", "Packages", "use PNPM, never npm_install.");
  // near duplicates
  await put(
    home,
    "workspaces/near",
    "00000021",
    "Deploys",
    "Deploy with the staging script before every release to the production servers.",
  );
  await put(
    home,
    "workspaces/near",
    "00000022",
    "Deploy rule",
    "Deploy with the staging script before each release to the production servers.",
  );
  // conflict: the same title, different texts, one chat; another workspace's own "Build command" is no conflict
  await put(home, "workspaces/conf", "00000031", "Build command", "npm run build");
  await put(home, "workspaces/conf", "00000032", "build  command", "make all");
  await put(home, "workspaces/other", "00000041", "Build command", "cargo build --release");
  // off for longer than 30 days
  await put(
    home,
    "workspaces/off",
    "00000051",
    "Old habit",
    "Use tabs.",
    "enabled: false\nsource: user\nupdated: 2026-09-01T00:00:00.000Z\n",
  );
  await put(
    home,
    "workspaces/off",
    "00000052",
    "Recent",
    "Use spaces.",
    "enabled: false\nsource: user\nupdated: 2026-11-20T00:00:00.000Z\n",
  );
  // a title over 80% of titleMaxChars (96 of 120)
  await put(home, "workspaces/big", "00000061", "T".repeat(97), "Long title.");
  // a payload over 80% of chatMaxTokens (set to 500 below): 850 + 750 characters
  await put(home, "workspaces/heavy", "00000071", "Heavy one", "a".repeat(850));
  await put(home, "workspaces/heavy", "00000072", "Heavy two", "b".repeat(750));
  await put(home, "workspaces/heavy", "00000073", "Light", "c");
  // a problem file
  await putFile(home, "memory/workspaces/prob/00000081", "no frontmatter here\n");
  // healthy
  await put(home, "workspaces/healthy", "00000091", "Tests", "Run the tests with vitest before pushing.");
  await put(home, "workspaces/healthy", "00000092", "Style", "Format with biome; lines up to 120 characters.");
  await put(home, "workspaces/healthy", "00000093", "Reviews", "Ask Ana to review anything touching billing.");
  await putFile(home, "settings.json", JSON.stringify({ memory: { chatMaxTokens: 500 } }));
}

const ids = (f: LintFinding) =>
  "memories" in f ? f.memories.map((m) => `${m.workspace ?? "global"}/${m.id}`) : "memory" in f ? [f.memory.id] : [];

describe("memory lint", () => {
  it("finds each planted finding, and nothing else", async () => {
    await plant();
    const report = await lintMemory(home, { all: true }, { now: NOW });
    expect(report.counts).toEqual({ problem: 1, conflict: 1, exact: 2, near: 1, off: 1, limit: 1, budget: 1 });
    const byKind = (k: LintFinding["kind"]) => report.findings.filter((f) => f.kind === k);

    const [across, within] = byKind("exact");
    expect(ids(across as LintFinding)).toEqual(["global/00000001", "dup/00000011"]);
    expect(across).toMatchObject({ sameChat: true });
    expect(ids(within as LintFinding)).toEqual(["dup/00000012", "dup/00000013"]);

    const near = byKind("near")[0];
    expect(near && ids(near)).toEqual(["near/00000021", "near/00000022"]);
    if (near?.kind !== "near") throw new Error("no near finding");
    // 11 distinct words each, 10 in common: 10 / 12
    expect(near.pairs).toHaveLength(1);
    expect(near.pairs[0]?.score).toBe(0.83);
    const changed = near.pairs[0]?.diff.inline.flatMap((l) => l.segments.filter((s) => s.changed).map((s) => s.text));
    expect(changed).toEqual(["every", "each"]);
    expect(near.pairs[0]?.diff.fields).toEqual([{ field: "title", old: "Deploys", new: "Deploy rule" }]);

    expect(byKind("conflict")).toEqual([
      expect.objectContaining({
        title: "Build command",
        memories: [expect.objectContaining({ id: "00000031" }), expect.objectContaining({ id: "00000032" })],
      }),
    ]);
    expect(byKind("off")).toEqual([
      expect.objectContaining({ memory: expect.objectContaining({ id: "00000051" }), days: 89 }),
    ]);
    expect(byKind("limit")).toEqual([
      expect.objectContaining({
        memory: expect.objectContaining({ id: "00000061" }),
        limit: "titleMaxChars",
        value: 97,
        max: 120,
      }),
    ]);

    const budget = byKind("budget")[0];
    if (budget?.kind !== "budget") throw new Error("no budget finding");
    // the same estimate as what a chat in the workspace receives
    const payload = await chatPayload(home, "heavy");
    expect(budget).toMatchObject({ workspace: "heavy", tokens: payload.tokens, limit: 500 });
    expect(budget.costliest.map((m) => m.id)).toEqual(["00000071", "00000072", "00000001", "00000073"]);

    expect(byKind("problem")).toEqual([
      {
        kind: "problem",
        workspace: "prob",
        id: "00000081",
        path: "memory/workspaces/prob/00000081",
        message: "The file does not start with a --- frontmatter block.",
      },
    ]);
  });

  it("gives no finding for a healthy workspace, and scopes a workspace to its chats", async () => {
    await plant();
    const healthy = await lintMemory(home, { workspace: "healthy" }, { now: NOW });
    expect(healthy.sets).toEqual([null, "healthy"]);
    expect(healthy.memories).toBe(4);
    expect(healthy.findings).toEqual([]);
    const dup = await lintMemory(home, { workspace: "dup" }, { now: NOW });
    expect(dup.counts.exact).toBe(2);
    await expect(lintMemory(home, { workspace: "nowhere" })).rejects.toThrow(
      "No memory set exists for workspace nowhere.",
    );
  });

  it("reports a global conflict once, and a workspace's memory that contradicts a global one", async () => {
    await put(home, "global", "00000001", "Tone", "Be formal.");
    await put(home, "workspaces/a", "00000002", "tone", "Be casual.");
    await put(home, "workspaces/b", "00000003", "Tone", "be FORMAL.");
    const report = await lintMemory(home, { all: true }, { now: NOW });
    expect(report.findings.filter((f) => f.kind === "conflict").map(ids)).toEqual([["global/00000001", "a/00000002"]]);
  });

  it("reports a settings problem as a problem finding", async () => {
    await putFile(home, "settings.json", JSON.stringify({ memory: { versionsKept: 1 } }));
    const report = await lintMemory(home, { global: true });
    expect(report.findings).toEqual([expect.objectContaining({ kind: "problem", path: "settings.json", id: null })]);
  });
});

describe("comparing texts", () => {
  it("sets aside case, white space and emphasis, but not a snake_case name's underscores", () => {
    expect(normaliseForCompare("  Use **PNPM**\n\n_always_ and ~~never~~ ***npm***  ")).toBe(
      "use pnpm always and never npm",
    );
    expect(normaliseForCompare("run my_script_name")).toBe("run my_script_name");
    expect(normaliseForCompare("2 * 3 * 4")).toBe("2 * 3 * 4");
  });

  it("scores by distinct words in common", () => {
    expect(similarity(wordsOf("a b c"), wordsOf("a b d"))).toBe(0.5);
    expect(similarity(wordsOf("a a b"), wordsOf("b a"))).toBe(1);
  });

  it("finds near duplicates hidden among thousands of memories without comparing every pair", () => {
    // seeded words, so the run is the same every time
    let seed = 7;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
    const text = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(rand() * vocab.length)]).join(" ");
    const sets = Array.from({ length: 40 }, (_, s) => ({
      workspace: `ws${s}`,
      problems: [],
      ignored: [],
      memories: Array.from({ length: 50 }, (_, k) =>
        summary(`ws${s}`, (s * 100 + k).toString(16).padStart(8, "0"), text(30)),
      ),
    }));
    // 20 planted pairs: a copy with one word of 30 replaced
    const planted: string[][] = [];
    for (let p = 0; p < 20; p++) {
      const src = sets[p * 2]?.memories[p] as ReturnType<typeof summary>;
      const copy = `${src.text.split(" ").slice(1).join(" ")} replaced${p}`;
      const id = `f${p.toString(16).padStart(7, "0")}`;
      sets[p * 2 + 1]?.memories.push(summary(`ws${p * 2 + 1}`, id, copy));
      planted.push([`${src.workspace}/${src.id}`, `ws${p * 2 + 1}/${id}`].sort());
    }
    const report = lintSets(sets, {
      titleMaxChars: 120,
      textMaxChars: 2000,
      fileMaxBytes: 65536,
      chatMaxTokens: 200000,
      versionsKept: 10,
    });
    const found = report.findings.filter((f) => f.kind === "near").map((f) => ids(f).sort());
    expect(found.sort()).toEqual(planted.sort());
  });
});

function summary(workspace: string, id: string, text: string) {
  return {
    id,
    workspace,
    title: `Memory ${id}`,
    text,
    enabled: true,
    author: "user" as const,
    created: "2026-11-01T00:00:00.000Z",
    titleChars: 15,
    textChars: text.length,
    bytes: text.length + 80,
    tokens: Math.ceil((text.length + 19) / 4),
  };
}
