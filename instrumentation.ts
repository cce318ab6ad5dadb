/**
 * Runs when the server starts (Next's instrumentation hook). `npm start`
 * preloads the duplicate-Host guard before the server exists; this installs it
 * for a bare `next start` too (from the first requests Next handles after its
 * start, which is why the preload is the main way).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await import("./server/host-guard.cjs");
}
