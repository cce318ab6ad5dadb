"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { useIndexStatus } from "@/components/search/use-index-status";
import { Button } from "@/components/ui/button";

const input =
  "w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/** The page's filters as they are in its URL. */
export interface FilterValues {
  since?: string;
  until?: string;
  cwd?: string;
  model?: string;
  tz?: string;
  period?: string;
}

/**
 * The date range, folder, model, grouping and zone: a plain GET form, so the
 * server renders every filtered view. Without a zone in the URL the page was
 * grouped in the server's; the browser's own is put in once, as ccusage
 * groups in the user's zone.
 */
export function InsightsFilters({
  values,
  usedZone,
  cwds,
  models,
}: {
  values: FilterValues;
  usedZone: string;
  cwds: (string | null)[];
  models: string[];
}) {
  const router = useRouter();
  const path = usePathname();
  const search = useSearchParams();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!search.get("tz") && zone && zone !== usedZone) {
      const next = new URLSearchParams(search.toString());
      next.set("tz", zone);
      router.replace(`${path}?${next}`);
    }
  }, [search, usedZone, path, router]);
  useRefreshWhenIndexed();
  const field = (id: string, label: string, control: React.ReactNode) => (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm">
        {label}
      </label>
      {control}
    </div>
  );
  return (
    <form method="get" action={path} aria-label="Insights filters" className="space-y-3">
      <fieldset className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <legend className="mb-1 text-sm font-medium">Filters</legend>
        {field(
          "ins-since",
          "From date",
          <input id="ins-since" name="since" type="date" defaultValue={values.since} className={input} />,
        )}
        {field(
          "ins-until",
          "To date",
          <input id="ins-until" name="until" type="date" defaultValue={values.until} className={input} />,
        )}
        {field(
          "ins-cwd",
          "Working folder",
          <select id="ins-cwd" name="cwd" defaultValue={values.cwd ?? "*"} className={input}>
            <option value="*">Any folder</option>
            {cwds.map((c) => (
              <option key={c ?? ""} value={c ?? ""}>
                {c ?? "(no working folder)"}
              </option>
            ))}
          </select>,
        )}
        {field(
          "ins-model",
          "Model",
          <select id="ins-model" name="model" defaultValue={values.model ?? ""} className={input}>
            <option value="">Any model</option>
            {models.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>,
        )}
        {field(
          "ins-period",
          "Group by",
          <select id="ins-period" name="period" defaultValue={values.period ?? "daily"} className={input}>
            <option value="daily">Day</option>
            <option value="weekly">Week</option>
            <option value="monthly">Month</option>
          </select>,
        )}
        {field(
          "ins-tz",
          "Time zone",
          <input dir="auto" id="ins-tz" name="tz" defaultValue={values.tz ?? usedZone} className={input} />,
        )}
      </fieldset>
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
    </form>
  );
}

/** Re-renders the page when a background refresh of the index ends (the panel beside it polls the same query). */
function useRefreshWhenIndexed() {
  const router = useRouter();
  useIndexStatus(() => router.refresh());
}
