"use client";

import { useQuery } from "@tanstack/react-query";
import { useRead } from "@/components/shell/use-read";
import { kindName } from "@/lib/bundle/kind-words";
import type { BundlePreview } from "@/server/jobs/bundle-jobs";

/** Bytes as the Support page shows them. */
export const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

/** A bundle job (a preview or the bundle being written), polled until it is over. */
export function useBundleJob(id: string | null) {
  const read = useRead();
  return useQuery({
    queryKey: ["bundle-job", id],
    queryFn: () => read("bundles.job", { id }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "running" ? false : 400),
  });
}

/**
 * What goes in: files and sizes (a log that is rewritten is shown at its
 * stored size, since the preview does not encode it), and how many values
 * each redaction kind replaces, as the bundle's manifest will count them.
 */
export function BundlePreviewView({ preview, kinds }: { preview: BundlePreview; kinds: readonly string[] }) {
  const { counts } = preview;
  // Every kind chosen, with the values it replaces (0 when none was found), then any other the counts hold.
  const rows: [string, number][] = [
    ...kinds.map((k): [string, number] => [k, counts.replaced[k] ?? 0]),
    ...Object.entries(counts.replaced).filter(([k]) => !kinds.includes(k)),
  ];
  return (
    <section className="space-y-2" aria-labelledby="preview-heading">
      <h3 id="preview-heading" className="font-semibold">
        What goes in
      </h3>
      <p>
        {counts.files} files, {size(counts.bytes)}: {counts.chats} chats, {counts.memories} memories, {counts.problems}{" "}
        problems in the doctor report.
        {counts.redactedFiles > 0 && ` ${counts.redactedFiles} files are rewritten by the redaction.`}
      </p>
      <table className="min-w-72 text-sm">
        <caption className="text-left font-medium">Values each redaction replaces</caption>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td>Nothing is redacted.</td>
            </tr>
          )}
          {rows.map(([kind, n]) => (
            <tr key={kind}>
              <th scope="row" className="pr-4 text-left font-normal">
                {kindName(kind)}
              </th>
              <td>{n}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary className="cursor-pointer">Files ({counts.files})</summary>
        <ul className="max-h-64 overflow-auto font-mono text-xs">
          {preview.files.map((f) => (
            <li key={f.path}>
              {f.path} — {size(f.size)}
            </li>
          ))}
          {preview.more > 0 && <li>…and {preview.more} more</li>}
        </ul>
      </details>
    </section>
  );
}
