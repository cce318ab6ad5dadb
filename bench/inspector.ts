/**
 * `npm run bench:inspector`: how fast the chat inspector opens a 1 GB
 * (decompressed) log, through the production server (`next start` from the
 * build in NEXT_DIST_DIR, default .next) against a baseline measured in the
 * same run: `zstd -dc <log> | head -n 200`, spawned.
 *  - (a) GET of the inspector page's HTML: first byte, the first 200 lines in it (the viewer's props in
 *    the RSC payload), and the whole streamed body (which waits for the details; a log this large serves them from its checkpoint);
 *  - (b) the first page of lines (`/chats/<id>/lines?from=1&count=200`), as the page's scroller asks for it;
 *  - (c) a jump to the last 200 lines (`from=-199`): cold (first request of a fresh server, which must
 *    count the log's lines first) and warm (the server's line index in memory);
 *  - (d) Chromium: navigation until the first line is visible, on a fresh server and again.
 * Medians of several runs, ratios to the baseline's median, /proc/loadavg before and after.
 * The log is the one `npm run bench:sessions` makes (bench/out/sessions/huge-1000000000), reused if present.
 * Options: `--runs N` (warm runs, default 5), `--cold N` (fresh servers, default 3), `--gb 1`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { type RunningServer, startServer } from "../e2e/server";
import config from "../playwright.config";
import { makeHugeLog } from "./sessions-data";

const { values } = parseArgs({
  options: { runs: { type: "string" }, cold: { type: "string" }, gb: { type: "string" } },
});
const RUNS = Number(values.runs ?? 5);
const COLD = Number(values.cold ?? 3);
const GB = Number(values.gb ?? 1);
const ID = "huge";
const PAGE = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const loadavg = () => readFileSync("/proc/loadavg", "utf8").trim();

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** Baseline: the first 200 lines straight from the zstd command line tool. */
function zstdHead(path: string): Promise<number> {
  return new Promise((done, fail) => {
    const t = performance.now();
    const child = spawn("sh", ["-c", 'zstd -dc -- "$1" | head -n 200 > /dev/null', "sh", path], { stdio: "ignore" });
    child.once("error", fail);
    child.once("exit", (code) => (code === 0 ? done(performance.now() - t) : fail(new Error(`zstd exited ${code}`))));
  });
}

/**
 * The page's first 200 lines as the HTML carries them: the `initialPage` prop of the log viewer in the
 * RSC payload (escaped inside a script). The viewer is virtualised and draws no rows on the server.
 */
const FIRST_LINES_IN_HTML = 'initialPage\\":{\\"lines\\":[{\\"n\\":1,';

/** A GET with the access token: times to the first byte, to `marker` in the body, and to its end. */
async function get(
  server: RunningServer,
  path: string,
  marker?: string,
): Promise<{ firstByte: number; marked: number; total: number; body: string }> {
  const t = performance.now();
  const response = await fetch(server.baseURL + path, { headers: { authorization: `Bearer ${server.token}` } });
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let firstByte = 0;
  let marked = 0;
  let body = "";
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    if (!firstByte) firstByte = performance.now() - t;
    body += decoder.decode(chunk.value, { stream: true });
    if (marker && !marked && body.includes(marker)) marked = performance.now() - t;
  }
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`);
  if (marker && !marked) throw new Error(`GET ${path}: the body never held ${marker}`);
  return { firstByte, marked, total: performance.now() - t, body };
}

const linesPath = (from: number, generation: string) =>
  `/chats/${ID}/lines?from=${from}&count=${PAGE}&generation=${encodeURIComponent(generation)}`;

async function withServer<T>(logs: string, run: (server: RunningServer) => Promise<T>): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), "oda-bench-inspector-"));
  const roots = { home: join(scratch, "home"), logs, state: join(scratch, "state") };
  const server = await startServer(roots);
  try {
    return await run(server);
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Chromium over the inspector: first line visible, line count shown, details read (then the next run). */
async function browse(
  server: RunningServer,
  runs: number,
): Promise<{ visible: number[]; counted: number[]; details: number[] }> {
  const use = config.use ?? {};
  const browser = await chromium.launch({ ...use.launchOptions });
  const visible: number[] = [];
  const counted: number[] = [];
  const details: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: use.viewport ?? null });
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
      const page = await context.newPage();
      const t = performance.now();
      await page.goto(`${server.baseURL}/chats/${ID}`, { waitUntil: "commit" });
      const lines = page.getByRole("region", { name: /^Lines of / });
      await lines.getByText(/^Chat started/).waitFor({ state: "visible", timeout: 60_000 });
      visible.push(performance.now() - t);
      await page.getByText(/lines · .* decompressed/).waitFor({ state: "visible", timeout: 120_000 });
      counted.push(performance.now() - t);
      // The details stream in from a read of the whole log: wait for them, or the server would still be
      // reading for this run while the next one starts.
      await page.getByText("Reading the whole log for its details…").waitFor({ state: "detached", timeout: 120_000 });
      details.push(performance.now() - t);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { visible, counted, details };
}

async function main() {
  const dist = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(join(dist, "BUILD_ID"))) {
    throw new Error(`No production build in ${dist}: run \`NEXT_DIST_DIR=${dist} npx next build\` first.`);
  }
  const out = join(process.cwd(), "bench", "out", "sessions");
  const logPath = await makeHugeLog(out, GB * 1e9, (s) => console.log(s));
  const logs = dirname(dirname(dirname(logPath)));
  const generation = logPath.slice(dirname(logPath).length + 1);
  console.log(`log: ${logPath} (${(statSync(logPath).size / 1e6).toFixed(0)} MB on disk), build: ${dist}`);
  console.log(`loadavg before: ${loadavg()}`);

  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) baseline.push(await zstdHead(logPath));

  const cold = {
    html: [] as number[],
    htmlFirstByte: [] as number[],
    htmlLines: [] as number[],
    first: [] as number[],
    last: [] as number[],
  };
  const browserCold: number[] = [];
  const warm = {
    html: [] as number[],
    htmlFirstByte: [] as number[],
    htmlLines: [] as number[],
    first: [] as number[],
    last: [] as number[],
    visible: [] as number[],
    counted: [] as number[],
    details: [] as number[],
  };
  let totalLines = 0;

  // Cold: each run on a fresh server (the line index lives in the server's memory; the OS file cache stays warm).
  for (let i = 0; i < COLD; i++) {
    await withServer(logs, async (server) => {
      const last = await time(() => get(server, linesPath(-(PAGE - 1), generation)));
      cold.last.push(last.ms);
      totalLines = (JSON.parse(last.value.body) as { total: number }).total;
    });
    await withServer(logs, async (server) => {
      // Each the first request of its route on this server (the page renders its first 200 lines itself).
      const html = await get(server, `/chats/${ID}`, FIRST_LINES_IN_HTML);
      cold.htmlFirstByte.push(html.firstByte);
      cold.htmlLines.push(html.marked);
      cold.html.push(html.total);
      cold.first.push((await time(() => get(server, linesPath(1, generation)))).ms);
    });
    await withServer(logs, async (server) => {
      browserCold.push(...(await browse(server, 1)).visible);
    });
    console.log(`  cold run ${i + 1}/${COLD} done`);
  }

  // Warm: one server, requests repeated (the first of each kind discarded as the warm-up).
  await withServer(logs, async (server) => {
    await get(server, linesPath(-(PAGE - 1), generation));
    await get(server, `/chats/${ID}`);
    for (let i = 0; i < RUNS; i++) {
      const html = await get(server, `/chats/${ID}`, FIRST_LINES_IN_HTML);
      warm.htmlFirstByte.push(html.firstByte);
      warm.htmlLines.push(html.marked);
      warm.html.push(html.total);
      warm.first.push((await time(() => get(server, linesPath(1, generation)))).ms);
      warm.last.push((await time(() => get(server, linesPath(-(PAGE - 1), generation)))).ms);
    }
    const seen = await browse(server, RUNS + 1);
    warm.visible.push(...seen.visible.slice(1));
    warm.counted.push(...seen.counted.slice(1));
    warm.details.push(...seen.details.slice(1));
  });

  const base = median(baseline);
  const row = (name: string, xs: number[], note = "") =>
    console.log(
      `${name.padEnd(52)} ${median(xs).toFixed(0).padStart(7)} ms  ${(median(xs) / base).toFixed(1).padStart(6)}x  [${xs
        .map((x) => x.toFixed(0))
        .join(", ")}]${note ? `  ${note}` : ""}`,
    );
  console.log(
    `\n${totalLines.toLocaleString("en")} lines; medians of ${RUNS} warm and ${COLD} cold runs (all runs in brackets)`,
  );
  console.log(`${"what".padEnd(52)} ${"median".padStart(10)}  ${"/ base".padStart(7)}`);
  row("baseline: zstd -dc | head -n 200", baseline);
  row("(a) inspector HTML, first byte, cold server", cold.htmlFirstByte);
  row("(a) inspector HTML, first 200 lines in it, cold server", cold.htmlLines, "(as the viewer's props)");
  row("(a) inspector HTML, whole body, cold server", cold.html, "(streams the details)");
  row("(a) inspector HTML, first byte, warm", warm.htmlFirstByte);
  row("(a) inspector HTML, first 200 lines in it, warm", warm.htmlLines);
  row("(a) inspector HTML, whole body, warm", warm.html);
  row("(b) lines 1..200, cold server", cold.first);
  row("(b) lines 1..200, warm", warm.first);
  row("(c) last 200 lines, cold server", cold.last, "(counts every line first)");
  row("(c) last 200 lines, warm", warm.last);
  row("(d) Chromium: first line visible, cold server", browserCold);
  row("(d) Chromium: first line visible, warm", warm.visible);
  row("(d) Chromium: line count shown, warm", warm.counted);
  row("(d) Chromium: details shown, warm", warm.details);
  console.log(`loadavg after: ${loadavg()}`);
}

await main();
