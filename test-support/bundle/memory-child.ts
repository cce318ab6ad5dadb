import { readFileSync } from "node:fs";
import { createBundle } from "../../lib/bundle/create";
import { testScope } from "./test-scope";

/**
 * Run as its own process by memory.test.ts (under a small heap): bundles the
 * log folder given, with every redaction kind on, and prints the process's
 * peak resident memory (Linux VmHWM) and the bundle's counts as JSON.
 */
const [logs, target] = process.argv.slice(2) as [string, string];
const made = await createBundle({ home: null, logs }, testScope(), target, { version: "memory-test" });
const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
process.stdout.write(JSON.stringify({ peakBytes: peakKb * 1024, counts: made.manifest.counts }));
