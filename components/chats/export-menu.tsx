import { Button } from "@/components/ui/button";

const FIELD =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/**
 * The chat page's Export menu: a plain GET form (no script needed) to the
 * chat's export route, addressed relative to the page, so it follows the
 * source the page is under. `chat export` in the CLI writes the same files.
 */
export function ExportMenu({ id, generation }: { id: string; generation: string | null }) {
  return (
    <details className="relative">
      <summary className="inline-flex cursor-pointer items-center rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-600 dark:bg-zinc-900 dark:hover:bg-zinc-800">
        Export
      </summary>
      <form
        method="get"
        action={`${encodeURIComponent(id)}/export`}
        aria-label="Export this chat"
        className="absolute right-0 z-20 mt-1 flex w-64 flex-col gap-2 rounded-md border border-zinc-300 bg-white p-3 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        <label className="flex flex-col gap-1">
          <span>Form</span>
          <select name="format" defaultValue="md" className={FIELD}>
            <option value="md">Markdown</option>
            <option value="html">HTML (one file, light and dark)</option>
            <option value="jsonl">JSONL (the log&apos;s lines)</option>
          </select>
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="redact" value="1" />
          <span>Redact as a support bundle does</span>
        </label>
        {generation && <input type="hidden" name="generation" value={generation} />}
        <Button type="submit" variant="primary">
          Download
        </Button>
      </form>
    </details>
  );
}
