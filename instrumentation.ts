/**
 * Next's start hook (Node runtime only). `npm start` and `oda-admin serve`
 * preload the duplicate-Host guard before the server exists; this installs it
 * for a bare `next start` too (from the first requests Next handles after its
 * start, which is why the preload is the main way). It reads the environment
 * once into the live source (`server/source/`), finishes or rolls back the
 * repairs a stop interrupted (`server/jobs/repairs.ts`), and applies Oda Admin's own
 * log limits from `<admin state>/settings.json` to this process (the decode
 * worker reads them itself), reporting a bad value; it starts the idle
 * collection of the main heap (`server/idle-collect.ts`); and with
 * `ODA_LOOP_REPORT=<file>` (the fuzz bench sets it) it records the event
 * loop's longest stall in that file.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await import("./server/access/host-guard.cjs");
  const { readLogLimits, setLogLimits } = await import("./lib/chats/limits");
  // The environment is read here, once: the live source's roots and a `serve --bundle` bundle.
  const { sources } = await import("./server/source/registry");
  const { liveContext } = await import("./server/source/context");
  const live = liveContext(sources().liveRoots);
  const { limits, problems } = readLogLimits(live.roots.state);
  setLogLimits(limits);
  for (const problem of problems) console.error(`oda-admin: ${problem}`);
  // Interrupted repairs are finished or rolled back now, at start, never by a read (the Repairs page shows what it did).
  const { resumeAtStart } = await import("./server/jobs/repairs");
  await resumeAtStart(live);
  // The main heap given back once the server is idle (V8's `gc`, exposed by the server's start).
  const { startIdleCollect } = await import("./server/idle-collect");
  startIdleCollect(globalThis.gc);
  if (!process.env.ODA_LOOP_REPORT) return;
  const { startLoopReport } = await import("./server/views/loop-report");
  startLoopReport(process.env.ODA_LOOP_REPORT);
}
