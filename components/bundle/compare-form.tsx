/**
 * Choose two opened bundles and compare them: a plain GET form (no script
 * needed), so the comparison has an address that can be shared and reloaded.
 */
export function CompareForm({
  bundles,
  before,
  after,
}: {
  bundles: { id: string; name: string; createdAt: string }[];
  before?: string;
  after?: string;
}) {
  const select = "rounded border border-zinc-400 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900";
  const options = bundles.map((b) => (
    <option key={b.id} value={b.id}>
      {b.name} ({b.createdAt})
    </option>
  ));
  return (
    <form action="/bundles/compare" method="get" className="flex flex-wrap items-end gap-3">
      <label className="text-sm">
        Before
        <select name="a" defaultValue={before ?? bundles[0]?.id} className={`${select} mt-1 block`}>
          {options}
        </select>
      </label>
      <label className="text-sm">
        After
        <select name="b" defaultValue={after ?? bundles[1]?.id ?? bundles[0]?.id} className={`${select} mt-1 block`}>
          {options}
        </select>
      </label>
      <button
        type="submit"
        className="rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        Compare
      </button>
    </form>
  );
}
