/**
 * Runs once when the server starts (Next's instrumentation hook): installs the
 * checks that need Node's own HTTP server, below what Next shows a request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ Server }, { installDuplicateHostGuard }] = await Promise.all([
    import("node:http"),
    import("@/server/host-guard"),
  ]);
  installDuplicateHostGuard(Server);
}
