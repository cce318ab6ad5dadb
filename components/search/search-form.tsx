"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { isOdaError } from "@/lib/errors";
import { checkQuery } from "@/lib/search-index/query-check";
import { SEARCH_ROLE_LABELS, type SearchParams } from "./search-params";

const input =
  "w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/** `checkQuery`'s sentence for a query it refuses, else null. */
function refusalOf(query: string): string | null {
  try {
    checkQuery(query);
    return null;
  } catch (error) {
    if (isOdaError(error)) return error.message;
    throw error;
  }
}

/** The query box and the filters; submitting hands the new search up. */
export function SearchForm({
  initial,
  folders,
  error,
  onSearch,
}: {
  initial: SearchParams;
  folders: string[];
  /** A refusal of the query or a filter: shown under its field. */
  error: { field: string; message: string } | null;
  onSearch: (params: SearchParams) => void;
}) {
  const [v, setV] = useState<SearchParams>(initial);
  // A query the server would refuse for its length is refused here: it would not fit in the address it travels in.
  const [tooLong, setTooLong] = useState<string | null>(null);
  const set = (patch: Partial<SearchParams>) => setV((old) => ({ ...old, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const query = v.query.trim();
    const refusal = query ? refusalOf(query) : null;
    setTooLong(refusal);
    if (refusal === null) onSearch({ ...v, query });
  };
  const errorFor = (field: string) => (error?.field === field ? error.message : null);
  const queryError = tooLong ?? errorFor("query");
  return (
    <search aria-label="Search every chat">
      <form onSubmit={submit} className="space-y-4">
        <div className="space-y-1">
          <label htmlFor="search-query" className="block text-sm font-medium">
            Search chats
          </label>
          <div className="flex gap-2">
            <input
              dir="auto"
              id="search-query"
              type="search"
              value={v.query}
              onChange={(e) => set({ query: e.target.value })}
              aria-describedby={`search-help${queryError ? " search-query-error" : ""}`}
              aria-invalid={queryError ? true : undefined}
              className={input}
              autoComplete="off"
            />
            <Button type="submit" variant="primary">
              Search
            </Button>
          </div>
          <p id="search-help" className="text-sm text-zinc-700 dark:text-zinc-300">
            Words must all appear; use &quot;exact phrases&quot;, prefix* for word beginnings, NOT to exclude and OR for
            either. Example: <code>budget NOT &quot;staging server&quot;</code>
          </p>
          <p id="search-query-error" aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
            {queryError}
          </p>
        </div>
        <fieldset className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          <legend className="mb-1 text-sm font-medium">Filters</legend>
          <div className="space-y-1">
            <label htmlFor="search-cwd" className="block text-sm">
              Working folder
            </label>
            <select id="search-cwd" value={v.cwd} onChange={(e) => set({ cwd: e.target.value })} className={input}>
              <option value="">Any folder</option>
              {folders.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
          <DateFilter
            field="since"
            label="From date"
            value={v.since}
            error={errorFor("since")}
            onChange={(value) => set({ since: value })}
          />
          <DateFilter
            field="until"
            label="To date"
            value={v.until}
            error={errorFor("until")}
            onChange={(value) => set({ until: value })}
          />
          <div className="space-y-1">
            <label htmlFor="search-role" className="block text-sm">
              Role
            </label>
            <select id="search-role" value={v.role} onChange={(e) => set({ role: e.target.value })} className={input}>
              <option value="">Any role</option>
              {Object.entries(SEARCH_ROLE_LABELS).map(([role, label]) => (
                <option key={role} value={role}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex items-center gap-2 self-end pb-2">
            <input
              id="search-problems"
              type="checkbox"
              checked={v.problems}
              onChange={(e) => set({ problems: e.target.checked })}
              className="h-4 w-4"
            />
            <label htmlFor="search-problems" className="text-sm">
              Only chats with problems
            </label>
          </div>
          <div className="flex items-center gap-2 self-end pb-2">
            <input
              id="search-notes"
              type="checkbox"
              checked={v.notes}
              onChange={(e) => set({ notes: e.target.checked })}
              className="h-4 w-4"
            />
            <label htmlFor="search-notes" className="text-sm">
              Only chats with notes
            </label>
          </div>
        </fieldset>
      </form>
    </search>
  );
}

/** A date filter with its error under it (the form's "From date" and "To date"). */
function DateFilter({
  field,
  label,
  value,
  error,
  onChange,
}: {
  field: "since" | "until";
  label: string;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={`search-${field}`} className="block text-sm">
        {label}
      </label>
      <input
        id={`search-${field}`}
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={error ? `search-${field}-error` : undefined}
        className={input}
      />
      <p id={`search-${field}-error`} aria-live="polite" className="text-sm text-red-700 dark:text-red-400">
        {error}
      </p>
    </div>
  );
}
