/**
 * `npm run bench:dashboard [-- --chats 100000 --huge-mb 200 --runs 3 --out DIR]`: the dashboard at 100,000 chats
 * (issue 28, "The dashboard at 100,000 chats"), timed in Chromium at 1280×800 against the production build
 * (`next start` from .next, or NEXT_DIST_DIR), each figure the median of `--runs` runs, printed against its
 * target. The log folder is the one `bench:scale` generates (`bench/scale-data.ts`: short chats over 200
 * working folders, one in 100 saying the rare word, and one chat `huge` whose log of `--huge-mb` MB has no
 * checkpoint); its search index is built once with the CLI and reused (`--out DIR`/dashboard; DIR is bench/out
 * unless given: keep it outside the checkout, a `next build` must not trace it).
 *
 * The baseline, timed in the same run: Chromium loading the Bundles page (a page that reads no chat), so
 * each figure also reads as a multiple of what any page costs here. The server's RSS (its process tree) is
 * sampled every 100 ms for the peak, and again after 15 s idle at the end. `--steps "chat list,Doctor"` times
 * only the steps named (the default is every step).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Browser, chromium, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { type RunningServer, startServer } from "../e2e/server";
import config from "../playwright.config";
import { RARE } from "./index-data";
import { makeScaleFolder } from "./scale-data";
import { smapsKinds, smapsLine } from "./smaps";

const { values } = parseArgs({
  options: {
    chats: { type: "string" },
    "huge-mb": { type: "string" },
    runs: { type: "string" },
    // Generated data (gigabytes at 100,000 chats): keep it outside the checkout, e.g. /work/bench-data/dash.
    out: { type: "string" },
    // Only these steps, by name (comma-separated: chat list, Home, search, Doctor, big chat, line count,
    // background job); the Doctor's whole report only with "Doctor whole". Memory is always sampled.
    steps: { type: "string" },
    // The server's resident memory by kind (`bench/smaps.ts`) at each new peak over 400 MiB and at the idle figure.
    smaps: { type: "boolean" },
    // A heap snapshot of the server's main thread after the idle figure, written into this folder.
    "heap-snapshot": { type: "string" },
  },
});
const SNAPSHOT = values["heap-snapshot"] ? resolve(values["heap-snapshot"]) : null;
const ONLY = values.steps ? new Set(values.steps.split(",").map((s) => s.trim())) : null;
const CHATS = Number(values.chats ?? 100_000);
const HUGE = Number(values["huge-mb"] ?? 200) * 1_000_000;
const RUNS = Number(values.runs ?? 3);
const root = process.cwd();
const out = resolve(values.out ?? join(root, "bench", "out"));
const log = (s: string) => process.stderr.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const WAIT = { timeout: 120_000 };

/** The server's process tree's resident memory in MiB (next start and any child it runs). */
function treeRssMiB(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  let kib = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop() as number;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      kib += Number(m?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
    stack.push(...(children.get(p) ?? []));
  }
  return kib / 1024;
}

/** One figure: its runs, how it is printed, its target. */
interface Figure {
  what: string;
  runs: number[];
  /** null: printed for the record, no target in the issue. */
  target: number | null;
  unit: "ms" | "presses" | "moves" | "MiB" | "×" | "jobs" | "px";
  note?: string;
}
const figures: Figure[] = [];
function record(what: string, target: number | null, unit: Figure["unit"], value: number, note?: string) {
  let f = figures.find((x) => x.what === what);
  if (!f) {
    f = { what, runs: [], target, unit, ...(note ? { note } : {}) };
    figures.push(f);
  }
  f.runs.push(value);
  if (note) f.note = note;
  log(`  ${what}: ${show(f, value)}${note ? ` (${note})` : ""}`);
}

async function newPage(browser: Browser, server: RunningServer): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: server.baseURL });
  await context.addCookies([
    {
      name: `oda_admin_${server.port}`,
      value: server.token,
      domain: "127.0.0.1",
      path: "/",
      httpOnly: true,
      sameSite: "Strict",
    },
  ]);
  // tsx keeps function names with esbuild's `__name` helper, which the functions sent to page.evaluate call.
  await context.addInitScript("globalThis.__name = (f) => f;");
  return context.newPage();
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** The chat list: first rows, complete, whether rows at the top moved while it loaded; End; a sort. */
async function chatList(page: Page) {
  const table = page.getByRole("table", { name: "Chats" });
  const t = performance.now();
  await page.goto("/chats", { waitUntil: "commit" });
  const firstRow = table.getByRole("row").getByRole("link").first();
  await firstRow.waitFor(WAIT);
  const first = performance.now() - t;
  // What a pointer resting on the table sees at first paint: the headings and rows at the top.
  const topAt = () =>
    table.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll('[role="rowgroup"] > [role="row"]')]
        .filter((r) => {
          const b = r.getBoundingClientRect();
          return b.top >= box.top + 30 && b.bottom <= box.bottom;
        })
        .map((r) => (r.textContent ?? "").slice(0, 60));
    });
  const before = await topAt();
  // Every row shown ("Listed N of N", or the end when it comes first), then the end: the rows checked against
  // the log folder (its walk and a few stats per chat, on the decode worker) and "Showing N of N chats".
  await page.getByText(/^Listed ([\d,]+) of \1 chats so far\.$|^Showing [\d,]+ of [\d,]+ chats/).waitFor(WAIT);
  const allRows = performance.now() - t;
  // Over a built index the count comes with the first window, while the folder check goes on: complete is
  // its verdict, said in the status line.
  await page.getByText(/^Showing [\d,]+ of [\d,]+ chats/).waitFor(WAIT);
  await page
    .getByText(/^Chats are listed from the search index\.|Chats are listed from the log folder directly\.$/)
    .waitFor(WAIT);
  const complete = performance.now() - t;
  const after = await topAt();
  const moved = before.filter((text, i) => after[i] !== text).length;
  record("chat list: first rows", 1000, "ms", first);
  record("chat list: every row shown", 2000, "ms", allRows);
  record("chat list: complete, checked against the folder", null, "ms", complete);
  record("chat list: rows and headings at the top that moved while it loaded", 0, "moves", moved);

  // End: presses until the last row is in view with its chat (each press given 3 s); a place whose row is
  // still being read (a window not yet come) does not count.
  const rowCount = Number(await table.getAttribute("aria-rowcount"));
  const last = table.locator(`[role="row"][aria-rowindex="${rowCount}"]`).filter({ has: page.getByRole("link") });
  await table.focus();
  let presses = 0;
  const tEnd = performance.now();
  for (; presses < 10; ) {
    presses++;
    await page.keyboard.press("End");
    try {
      await last.waitFor({ state: "visible", timeout: 3000 });
      const inView = await last.evaluate((r) => {
        const box = r.closest('[role="table"]')?.getBoundingClientRect();
        const b = r.getBoundingClientRect();
        return !!box && b.bottom <= box.bottom + 1 && b.top >= box.top;
      });
      if (inView) break;
    } catch {
      // Not there yet: press again.
    }
  }
  record("End key in the chat table: presses", 1, "presses", presses);
  record("End key in the chat table: time", 1000, "ms", performance.now() - tEnd);
  await page.keyboard.press("Home");

  // A sort: from the click until the header says so and the next frame is drawn.
  const sortMs = await page.evaluate(async () => {
    const button = [...document.querySelectorAll('[role="columnheader"] button')].find((b) =>
      b.textContent?.startsWith("Tokens"),
    ) as HTMLButtonElement;
    const header = button.closest('[role="columnheader"]') as HTMLElement;
    const t0 = performance.now();
    button.click();
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    while (header.getAttribute("aria-sort") !== "descending") await frame();
    await frame();
    return performance.now() - t0;
  });
  record("sorting the list (Tokens)", 300, "ms", sortMs);
}

/** Home: until the chats' numbers are shown. */
async function home(page: Page) {
  const ms = await timed(async () => {
    await page.goto("/", { waitUntil: "commit" });
    await page
      .getByRole("region", { name: "Chats" })
      .getByText(/^[\d,]+ chats$/)
      .waitFor(WAIT);
  });
  record("Home", 500, "ms", ms);
}

/** A rare-word search: until its first result is shown; the page's own "took" figure beside it. */
async function search(page: Page) {
  const ms = await timed(async () => {
    await page.goto(`/search?q=${RARE}`, { waitUntil: "commit" });
    await page
      .getByText(/\([\d.]+ ms\)/)
      .first()
      .waitFor(WAIT);
  });
  const said =
    (await page
      .getByText(/\([\d.]+ ms\)/)
      .first()
      .textContent()) ?? "";
  record("a rare-word search shown", 500, "ms", ms, `the page said ${/\(([\d.]+) ms\)/.exec(said)?.[1]} ms`);
}

/**
 * Doctor from the chat list: the page, then its first step of the report (progress or problems); in the
 * first run also the whole report and the sentence it ends with.
 */
async function doctor(page: Page, whole: boolean) {
  await page.goto("/chats");
  await page.getByRole("table", { name: "Chats" }).getByRole("row").getByRole("link").first().waitFor(WAIT);
  const t = performance.now();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Doctor" }).click();
  await page.getByRole("heading", { level: 1, name: "Doctor report" }).waitFor(WAIT);
  const shown = performance.now() - t;
  await page
    .getByText(/^No problems so far \([\d,]+ chats? read\)\.$|^Chat logs \([\d,]+ problems?( so far)?\)$/)
    .first()
    .waitFor(WAIT);
  record("Doctor: the page shown", 1000, "ms", shown);
  record("Doctor: first report step (progress or problems)", 2000, "ms", performance.now() - t);
  if (whole) {
    const said = page.getByRole("status").getByText(/^(No problems found|[\d,]+ problems? found)\.$/);
    await said.waitFor({ timeout: 600_000 });
    const heading = await page
      .getByText(/^Chat logs/)
      .first()
      .textContent();
    record(
      "Doctor: the whole report (first run)",
      null,
      "ms",
      performance.now() - t,
      `"${await said.textContent()}" under "${heading}"`,
    );
  }
  // Leaving stops the server's reading (the stream is cancelled).
  await page.goto("/bundles");
}

/** The big chat: End in the toolbar, until the last line is inside the window. */
async function bigChat(page: Page) {
  await page.goto("/chats/huge");
  await page.getByRole("region", { name: /^Lines of / }).waitFor(WAIT);
  await page
    .getByRole("region", { name: /^Lines of / })
    .getByRole("listitem")
    .first()
    .waitFor(WAIT);
  const ms = await timed(async () => {
    await page.getByRole("button", { name: /^End/ }).first().click();
    await page
      .waitForFunction(
        () => {
          const region = document.querySelector('[role="region"][aria-label^="Lines of "]');
          const items = region ? [...region.querySelectorAll('[role="listitem"]')] : [];
          const lastItem = items.at(-1);
          if (!region || !lastItem) return false;
          const atBottom = region.scrollTop + region.clientHeight >= region.scrollHeight - 2;
          return atBottom && lastItem.getBoundingClientRect().bottom <= window.innerHeight + 1;
        },
        undefined,
        WAIT,
      )
      .catch(async (error: unknown) => {
        // What the pane showed when the last line never came into view (session 41 saw it in 3 runs of 28).
        const pane = await page.evaluate(() => {
          const region = document.querySelector('[role="region"][aria-label^="Lines of "]');
          const last = [...(region?.querySelectorAll('[role="listitem"]') ?? [])].at(-1);
          return {
            scrollTop: region?.scrollTop,
            clientHeight: region?.clientHeight,
            scrollHeight: region?.scrollHeight,
            last: last?.textContent?.slice(0, 120),
            lastBottom: last?.getBoundingClientRect().bottom,
            windowHeight: window.innerHeight,
          };
        });
        log(`  End in the big chat: the pane when it timed out: ${JSON.stringify(pane)}`);
        throw error;
      });
  });
  record("End in the big chat: last line inside the window", 1000, "ms", ms);
  // What arrives after End must not take the last line away: on a first visit the activity strip and the line
  // count come seconds later (session 42: the strip pushed the pane 112 px down; End went to the last line
  // read so far). The last line's bottom once both are in, two frames later; the window is 800 px high.
  await page.getByRole("figure", { name: /^Activity over time/ }).waitFor(WAIT);
  await page.getByText(/^[\d,]+ lines · /).waitFor(WAIT);
  const bottom = await page.evaluate(
    () =>
      new Promise<number>((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const region = document.querySelector('[role="region"][aria-label^="Lines of "]');
            const last = [...(region?.querySelectorAll('[role="listitem"]') ?? [])].at(-1);
            done(Math.round(last?.getBoundingClientRect().bottom ?? Number.POSITIVE_INFINITY));
          }),
        ),
      ),
  );
  record("End in the big chat: last line's bottom once the strip and the count are in", 800, "px", bottom);
}

/** The chat list loaded until complete (the interactive request the background job is weighed against). */
async function listComplete(page: Page): Promise<number> {
  return timed(async () => {
    await page.goto("/chats", { waitUntil: "commit" });
    await page.getByText(/^Showing [\d,]+ of [\d,]+ chats/).waitFor(WAIT);
    await page
      .getByText(/^Chats are listed from the search index\.|Chats are listed from the log folder directly\.$/)
      .waitFor(WAIT);
  });
}

/**
 * Support's Preview of every chat in the background: the chat list loaded to the end alone, then while the
 * preview runs in another tab (the ratio is the slow-down, target ≤ 1.2×); then that tab is closed, and the
 * job, read once 25 s later (a read is a poll, so it is not read before), must say it was cancelled.
 */
async function backgroundJob(browser: Browser, server: RunningServer, page: Page) {
  const alone = await listComplete(page);
  const support = await newPage(browser, server);
  let job = "";
  support.on("request", (r) => {
    const m = /bundles\.job\?input=([^&]+)/.exec(r.url());
    if (m) job = (JSON.parse(decodeURIComponent(m[1] ?? "")) as { id: string }).id;
  });
  await support.goto("/support");
  await support.getByRole("button", { name: "Preview" }).click();
  await support.getByText("Reading and counting what each redaction replaces").first().waitFor(WAIT);
  // A list that does not complete within WAIT while the preview runs counts as WAIT (the ratio is then a floor).
  const during = await listComplete(page).catch(() => WAIT.timeout);
  const stillRunning = await support.getByText("Reading and counting what each redaction replaces").first().isVisible();
  record(
    "Support Preview running: chat list complete, × alone",
    1.2,
    "×",
    Math.round((during / alone) * 100) / 100,
    stillRunning ? undefined : "the preview had ended before the list did",
  );
  await support.context().close();
  await new Promise((r) => setTimeout(r, 25_000));
  const res = await page.request.get(`/api/read/bundles.job?input=${encodeURIComponent(JSON.stringify({ id: job }))}`);
  const body = (await res.json()) as { ok: boolean; data?: { state: string } };
  record(
    "Support Preview abandoned: still running 25 s after its tab closed (0 = cancelled)",
    0,
    "jobs",
    body.data?.state === "running" ? 1 : 0,
    `state ${body.data?.state ?? JSON.stringify(body)}`,
  );
}

/** The big chat's line count: shown at the first visit of this run, then at a second visit (remembered). */
async function lineCount(page: Page) {
  for (const visit of ["first", "second"]) {
    const ms = await timed(async () => {
      await page.goto("/chats/huge", { waitUntil: "commit" });
      await page
        .getByText(/^[\d,]+ lines · /)
        .first()
        .waitFor(WAIT);
    });
    record(`the big chat's line count shown, ${visit} visit of the run`, visit === "first" ? null : 1000, "ms", ms);
  }
}

async function baseline(page: Page): Promise<number> {
  return timed(async () => {
    await page.goto("/bundles", { waitUntil: "commit" });
    await page.getByRole("heading", { level: 1 }).first().waitFor(WAIT);
  });
}

/** The log folder an index was built for (the server sets aside an index built for another). */
function builtFor(state: string): string | null {
  try {
    const db = new Database(join(state, "index.sqlite"), { readonly: true, fileMustExist: true });
    try {
      return (
        (db.prepare("SELECT value FROM meta WHERE key = 'logDir'").get() as { value: string } | undefined)?.value ??
        null
      );
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

function buildIndex(logs: string, state: string) {
  if (existsSync(join(state, ".bench-built"))) {
    const builtOver = builtFor(state);
    if (builtOver === logs) return;
    // A state copied beside logs at another path: the server would set it aside and serve without an index.
    log(`the index in ${state} was built for ${builtOver ?? "no log folder"}, not ${logs}: building it again`);
    rmSync(state, { recursive: true, force: true });
  }
  mkdirSync(state, { recursive: true });
  log("building the search index once (oda-admin index refresh)…");
  const r = spawnSync(join(root, "bin", "oda-admin"), ["index", "refresh", "--logs", logs, "--state", state], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error(`index refresh exited ${r.status}`);
  spawnSync("touch", [join(state, ".bench-built")]);
}

function show(f: Figure, v: number): string {
  return f.unit === "ms" ? `${(v / 1000).toFixed(2)} s` : f.unit === "MiB" ? `${v.toFixed(0)} MiB` : `${v}`;
}

async function main() {
  const dist = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(join(dist, "BUILD_ID"))) throw new Error(`No production build in ${dist}: run npx next build.`);
  const logs = await makeScaleFolder(join(out, "scale"), CHATS, HUGE, log);
  const state = join(out, "dashboard", `state-${CHATS}-${HUGE / 1e6}`);
  buildIndex(logs, state);
  const home0 = join(out, "dashboard", "home");
  mkdirSync(home0, { recursive: true });
  // The server's event loop: its longest stall (`instrumentation.ts` writes it with ODA_LOOP_REPORT).
  const loopReport = join(out, "dashboard", "loop.json");
  for (const name of readdirSync(dirname(loopReport)).filter((n) => n.startsWith("loop.json.")))
    rmSync(join(dirname(loopReport), name));
  // The server takes NODE_OPTIONS from this process's environment (the bench is its edge).
  if (SNAPSHOT)
    process.env.NODE_OPTIONS = [
      process.env.NODE_OPTIONS,
      "--heapsnapshot-signal=SIGWINCH",
      `--diagnostic-dir=${SNAPSHOT}`,
    ]
      .filter(Boolean)
      .join(" ");
  const server = await startServer({ home: home0, logs, state }, { ODA_LOOP_REPORT: loopReport });
  let peak = 0;
  let peakKinds = "";
  let peakRead = 0;
  let peakAt = "";
  let stepNow = "";
  const sampler = setInterval(() => {
    const now = treeRssMiB(server.pid);
    // Read at a new peak at least 16 MiB over the last one read: a few reads a run, not one a sample.
    if (values.smaps && now > 400 && now > peakRead + 16) {
      peakKinds = smapsLine(smapsKinds(server.pid));
      peakRead = now;
      peakAt = stepNow;
    }
    peak = Math.max(peak, now);
  }, 100);
  const browser = await chromium.launch({ ...(config.use?.launchOptions ?? {}) });
  const base: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await newPage(browser, server);
      page.context().setDefaultTimeout(120_000);
      base.push(await baseline(page));
      // A step that fails is reported and left out of this run; the others are still timed.
      const steps: [string, () => Promise<unknown>][] = [
        ["chat list", () => chatList(page)],
        ["Home", () => home(page)],
        ["search", () => search(page)],
        ["Doctor", () => doctor(page, run === 0 && (!ONLY || ONLY.has("Doctor whole")))],
        ["big chat", () => bigChat(page)],
        ["line count", () => lineCount(page)],
        ["background job", () => backgroundJob(browser, server, page)],
      ];
      for (const [name, step] of steps.filter(([name]) => !ONLY || ONLY.has(name))) {
        stepNow = `${name}, run ${run + 1}`;
        await step().catch((error: unknown) =>
          log(`  ${name} failed in run ${run + 1}: ${String(error).split("\n")[0]}`),
        );
      }
      await page.context().close();
      log(`run ${run + 1}/${RUNS} done; peak RSS so far ${peak.toFixed(0)} MiB`);
    }
    // The issue's targets are in MB (600 MB = 572 MiB, 300 MB = 286 MiB); the figures are in MiB.
    record("server memory: peak (target 600 MB)", 600e6 / 2 ** 20, "MiB", peak);
    await new Promise((r) => setTimeout(r, 15_000));
    record("server memory: after 15 s idle (target 300 MB)", 300e6 / 2 ** 20, "MiB", treeRssMiB(server.pid));
    if (values.smaps) {
      log(`server memory at its last peak read (${peakAt}): ${peakKinds || "(under 400 MiB)"}`);
      log(`server memory after 15 s idle: ${smapsLine(smapsKinds(server.pid))}`);
    }
    if (existsSync(loopReport)) log(`server event loop: ${readFileSync(loopReport, "utf8").trim()}`);
    if (SNAPSHOT) {
      mkdirSync(SNAPSHOT, { recursive: true });
      const had = new Set(readdirSync(SNAPSHOT));
      process.kill(server.pid, "SIGWINCH");
      // Written once the snapshot is whole (its name appears when it starts: wait for its size to settle).
      let size = -1;
      for (;;) {
        await new Promise((r) => setTimeout(r, 1000));
        const file = readdirSync(SNAPSHOT).find((n) => !had.has(n) && n.endsWith(".heapsnapshot"));
        const now = file ? statSync(join(SNAPSHOT, file)).size : -1;
        if (file && now > 0 && now === size) {
          log(`heap snapshot of the server's main thread: ${join(SNAPSHOT, file)}`);
          break;
        }
        size = now;
      }
    }
    // The decode worker's threads (lanes) report their own heaps beside it, the last figure each wrote.
    for (const name of readdirSync(dirname(loopReport)).filter((n) => n.startsWith("loop.json.")))
      log(
        `  thread ${name.slice("loop.json.".length)}: ${readFileSync(join(dirname(loopReport), name), "utf8").trim()}`,
      );
  } finally {
    clearInterval(sampler);
    await browser.close();
    await server.stop();
  }
  const b = median(base);
  console.log(
    `\n${CHATS.toLocaleString("en")} chats${HUGE ? ` (plus one log of ${HUGE / 1e6} MB without a checkpoint)` : ""}, Chromium 1280×800, median of ${RUNS} runs; baseline (the Bundles page loaded) ${(b / 1000).toFixed(2)} s\n`,
  );
  console.log("| what | median | runs | × baseline | target | met |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const f of figures) {
    const m = f.unit === "MiB" ? Math.max(...f.runs) : median(f.runs);
    const ratio = f.unit === "ms" ? `${(m / b).toFixed(1)}×` : "";
    const met = f.target === null ? "" : m <= f.target ? "yes" : "**no**";
    const target =
      f.target === null
        ? "—"
        : f.unit === "ms"
          ? `≤ ${(f.target / 1000).toFixed(1)} s`
          : `≤ ${f.unit === "MiB" ? f.target.toFixed(0) : f.target} ${f.unit}`;
    console.log(
      `| ${f.what}${f.note ? ` (${f.note})` : ""} | ${show(f, m)} | ${f.runs.map((v) => show(f, v)).join(", ")} | ${ratio} | ${target} | ${met} |`,
    );
  }
}

await main();
