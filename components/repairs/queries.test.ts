import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { FormJob } from "@/lib/repair";
import { repairsQueries } from "./queries";

/** The refetch interval a query's options give for the data it holds. */
function intervalFor<T>(options: { queryKey: readonly unknown[]; refetchInterval?: unknown }, data: T) {
  const client = new QueryClient();
  client.setQueryData(options.queryKey, data);
  const query = client.getQueryCache().find({ queryKey: options.queryKey });
  const interval = options.refetchInterval;
  return typeof interval === "function" ? interval(query) : interval;
}

const job = (phase: FormJob["phase"]) => ({ phase }) as FormJob;

describe("the Repairs page's reads", () => {
  it("never polls the overview, which scans the whole log folder; it is read again on focus", () => {
    const overview = repairsQueries.overview();
    expect(intervalFor(overview, { job: null })).toBeFalsy();
    expect(intervalFor(overview, { job: job("running") })).toBeFalsy();
    expect(overview.refetchOnWindowFocus).toBe(true);
  });

  it("polls the conversion job alone, every second while it runs and not after", () => {
    const read = repairsQueries.job();
    expect(read.meta?.read).toBe("repairs.job");
    expect(intervalFor(read, job("running"))).toBe(1_000);
    expect(intervalFor(read, job("done"))).toBe(false);
    expect(intervalFor(read, null)).toBe(false);
  });
});
