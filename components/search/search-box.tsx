/**
 * A compact "search every chat" box for other pages (the chat list): a plain
 * GET form to `/search?q=…`, so it works before any script has loaded.
 */
export function SearchBox({ id = "search-box" }: { id?: string }) {
  return (
    <search aria-label="Search every chat">
      <form action="/search" method="get" className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="block text-sm font-medium">
            Search in all chats
          </label>
          <input
            dir="auto"
            id={id}
            name="q"
            type="search"
            required
            aria-describedby={`${id}-help`}
            className="w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600"
          />
          <p id={`${id}-help`} className="sr-only">
            Words, &quot;exact phrases&quot;, prefix* and NOT; opens the Search page.
          </p>
        </div>
        <button
          type="submit"
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-600 dark:bg-zinc-900 dark:hover:bg-zinc-800"
        >
          Search
        </button>
      </form>
    </search>
  );
}
