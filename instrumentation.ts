/**
 * Next's start hook. With `ODA_LOOP_REPORT=<file>` (the fuzz bench sets it),
 * the server measures its event loop's longest stall and writes it to that
 * file, so a bench can tell whether any request blocked the loop.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.ODA_LOOP_REPORT) return;
  const { startLoopReport } = await import("./server/loop-report");
  startLoopReport(process.env.ODA_LOOP_REPORT);
}
