/**
 * Next's start hook (Node runtime only). `npm start` and `oda-admin serve`
 * preload the duplicate-Host guard before the server exists; this installs it
 * for a bare `next start` too (from the first requests Next handles after its
 * start, which is why the preload is the main way). It applies Oda Admin's own
 * log limits from `<admin state>/settings.json` to this process (the decode
 * worker reads them itself), reporting a bad value; and with
 * `ODA_LOOP_REPORT=<file>` (the fuzz bench sets it) it records the event
 * loop's longest stall in that file.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await import("./server/host-guard.cjs");
  const { readLogLimits, setLogLimits } = await import("./lib/sessions/limits");
  const { resolveRoots } = await import("./lib/roots");
  const { limits, problems } = readLogLimits(resolveRoots({}, process.env).state);
  setLogLimits(limits);
  for (const problem of problems) console.error(`oda-admin: ${problem}`);
  if (!process.env.ODA_LOOP_REPORT) return;
  const { startLoopReport } = await import("./server/loop-report");
  startLoopReport(process.env.ODA_LOOP_REPORT);
}
