import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** What the loop report file holds (milliseconds). */
export interface LoopReport {
  /** Since the last SIGUSR2 (the bench sends one once the server is up), else since start. */
  maxStallMs: number;
  /** Since start, Next's loading of the app's modules included. */
  maxStallSinceStartMs: number;
  p99Ms: number;
  at: string;
}

/**
 * Samples the event loop's delay (10 ms resolution) and rewrites `file` with
 * the longest stall so far every 200 ms. For benches only: started from
 * `instrumentation.ts` when `ODA_LOOP_REPORT` is set. SIGUSR2 starts a new
 * window, so a bench can leave the server's start-up out of its figure.
 */
export function startLoopReport(file: string): void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const sinceStart = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  sinceStart.enable();
  const write = () => {
    const report: LoopReport = {
      maxStallMs: Math.round(histogram.max / 1e6),
      maxStallSinceStartMs: Math.round(sinceStart.max / 1e6),
      p99Ms: Math.round(histogram.percentile(99) / 1e6),
      at: new Date().toISOString(),
    };
    writeFileSync(file, `${JSON.stringify(report)}\n`);
  };
  setInterval(write, 200).unref();
  process.on("SIGUSR2", () => {
    histogram.reset();
    write();
  });
  write();
}
