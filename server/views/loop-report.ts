import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { threadId } from "node:worker_threads";

/** A thread's heap in MiB, now and at its highest since start (`process.memoryUsage`: rss is the whole process). */
export interface HeapFigures {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  /** Buffers and other memory held outside the heap for this thread's objects. */
  external: number;
  peakHeapTotal: number;
  peakRss: number;
}

/** Samples this thread's memory (each call); the peaks are kept since the first call. */
function heapSampler(): () => HeapFigures {
  const mib = (n: number) => Math.round(n / 1024 ** 2);
  let peakHeapTotal = 0;
  let peakRss = 0;
  return () => {
    const m = process.memoryUsage();
    peakHeapTotal = Math.max(peakHeapTotal, m.heapTotal);
    peakRss = Math.max(peakRss, m.rss);
    return {
      rss: mib(m.rss),
      heapUsed: mib(m.heapUsed),
      heapTotal: mib(m.heapTotal),
      external: mib(m.external),
      peakHeapTotal: mib(peakHeapTotal),
      peakRss: mib(peakRss),
    };
  };
}

/**
 * For benches, beside the loop report: a worker thread (the decode worker's lanes) rewrites
 * `<file>.<name>-<threadId>.json` with its own heap every 500 ms while it lives (`at`: when, so a thread
 * since ended shows by its time).
 */
export function startThreadHeapReport(file: string, name: string): void {
  const sample = heapSampler();
  const write = () =>
    writeFileSync(
      `${file}.${name}-${threadId}.json`,
      `${JSON.stringify({ ...sample(), at: new Date().toISOString() })}\n`,
    );
  setInterval(write, 500).unref();
  write();
}

/** What the loop report file holds (milliseconds). */
export interface LoopReport {
  /** Since the last SIGUSR2 (the bench sends one once the server is up), else since start. */
  maxStallMs: number;
  /** Since start, Next's loading of the app's modules included. */
  maxStallSinceStartMs: number;
  p99Ms: number;
  /** The main thread's heap (the server's; the worker threads report their own, `startThreadHeapReport`). */
  memory: HeapFigures;
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
  const sample = heapSampler();
  const write = () => {
    const report: LoopReport = {
      maxStallMs: Math.round(histogram.max / 1e6),
      maxStallSinceStartMs: Math.round(sinceStart.max / 1e6),
      p99Ms: Math.round(histogram.percentile(99) / 1e6),
      memory: sample(),
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
