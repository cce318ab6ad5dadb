"use client";

import { useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { useIndexStatus } from "@/components/search/use-index-status";
import { useSourcePathname, useSourceRouter } from "@/components/shell/source";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";

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
  const router = useSourceRouter();
  const path = useSourcePathname();
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
  return (
    <form method="get" action={path} aria-label="Insights filters" className="space-y-3">
      <fieldset className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <legend className="mb-1 text-sm font-medium">Filters</legend>
        <Field id="ins-since" label="From date" labelClassName="block text-sm">
          {(control) => <input {...control} name="since" type="date" defaultValue={values.since} className={input} />}
        </Field>
        <Field id="ins-until" label="To date" labelClassName="block text-sm">
          {(control) => <input {...control} name="until" type="date" defaultValue={values.until} className={input} />}
        </Field>
        <Field id="ins-cwd" label="Working folder" labelClassName="block text-sm">
          {(control) => (
            <select {...control} name="cwd" defaultValue={values.cwd ?? "*"} className={input}>
              <option value="*">Any folder</option>
              {cwds.map((c) => (
                <option key={c ?? ""} value={c ?? ""}>
                  {c ?? "(no working folder)"}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="ins-model" label="Model" labelClassName="block text-sm">
          {(control) => (
            <select {...control} name="model" defaultValue={values.model ?? ""} className={input}>
              <option value="">Any model</option>
              {models.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <Field id="ins-period" label="Group by" labelClassName="block text-sm">
          {(control) => (
            <select {...control} name="period" defaultValue={values.period ?? "daily"} className={input}>
              <option value="daily">Day</option>
              <option value="weekly">Week</option>
              <option value="monthly">Month</option>
            </select>
          )}
        </Field>
        <Field id="ins-tz" label="Time zone" labelClassName="block text-sm">
          {(control) => <input {...control} name="tz" defaultValue={values.tz ?? usedZone} className={input} />}
        </Field>
      </fieldset>
      <Button type="submit" variant="primary">
        Apply filters
      </Button>
    </form>
  );
}

/** Re-renders the page when a background refresh of the index ends (the panel beside it polls the same query). */
function useRefreshWhenIndexed() {
  const router = useSourceRouter();
  useIndexStatus(() => router.refresh());
}
