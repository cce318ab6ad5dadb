import type { StorageReport, StorageSums } from "../../lib/insights";
import { formatBytes } from "../../lib/insights/tables";

/** `oda-admin storage` as text: totals, then folders and the largest chats. */

function row(label: string, s: StorageSums): string {
  const cells = [s.totalBytes, s.currentBytes, s.decompressedBytes, s.olderBytes, s.checkpointBytes, s.lockBytes];
  return `${cells.map((b) => formatBytes(b).padStart(11)).join(" ")}  ${label}`;
}

/** The human form of a storage report. */
export function formatStorage(r: StorageReport): string {
  const t = r.totals;
  const lines = [
    `${t.chats.toLocaleString("en")} chats take ${formatBytes(t.totalBytes)} on disk${r.cwd === null ? "" : ` in ${r.cwd || "(no working folder)"}`}:`,
    `  current logs      ${formatBytes(t.currentBytes)} (${formatBytes(t.decompressedBytes)} decompressed)`,
    `  older generations ${formatBytes(t.olderBytes)} in ${t.olderLogs.toLocaleString("en")} logs (nothing removes them for you)`,
    `  checkpoints       ${formatBytes(t.checkpointBytes)} in ${t.checkpoints.toLocaleString("en")} files`,
    `  locks             ${formatBytes(t.lockBytes)} in ${t.locks.toLocaleString("en")} files`,
    "",
    `${["total", "current", "decompr.", "older", "checkpts", "locks"].map((h) => h.padStart(11)).join(" ")}  working folder`,
    ...r.folders.map((f) => row(f.cwd ?? "(no working folder)", f)),
    "",
    "Largest chats:",
    ...r.largest.map((c) => row(`${c.id}  ${c.title ?? "(untitled)"}`, c)),
  ];
  return lines.join("\n");
}
