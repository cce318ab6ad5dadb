/**
 * How the Usage figures are counted, stated as `lib/search-index/usage.ts` (the
 * index's usage facts) and `lib/insights` sum them: which lines, and what is
 * left out. Keep it in step with that code.
 */
export function TokenCounting({ timezone }: { timezone: string }) {
  return (
    <details className="rounded-md border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
      <summary className="cursor-pointer font-semibold">How tokens are counted</summary>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          Each chat&apos;s current log is read once by the search index; older log generations are not counted again.
        </li>
        <li>
          Every message line counts as one message: a line whose <code>type</code> is <code>message</code> (or, in older
          logs, a line with no <code>type</code> and a <code>role</code>), whatever its role.
        </li>
        <li>
          Its tokens are its <code>usage.input_tokens</code> and <code>usage.output_tokens</code>, each a positive
          number rounded down; a missing or other value counts as 0. Total tokens are input plus output.
        </li>
        <li>
          Left out: lines that are not messages (titles, memory and other events), a line that is not valid JSON, an
          unfinished last line (until it is complete), any other field of <code>usage</code>, and messages whose time
          cannot be read (they fall on no day, in every report and chat total here).
        </li>
        <li>Format 1 chats record no usage: their messages are counted with 0 tokens, never estimated.</li>
        <li>Days, weeks (from Monday) and months are local to {timezone}, across daylight-saving changes.</li>
        <li>
          The same figures come from <code>oda-admin usage daily|chats --json</code>; the chats&apos; totals add up to
          the daily totals for the same filters.
        </li>
      </ul>
    </details>
  );
}
