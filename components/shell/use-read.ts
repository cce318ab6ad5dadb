import { useCallback } from "react";
import type { ReadData, ReadName } from "@/server/reads";
import { fetchRead } from "./read-query";
import { useSource } from "./source";

/**
 * A read asked for on demand (Find, a repair's preview, a job's progress):
 * `GET /api/read/<name>` at the page's source's address, unwrapped like a
 * query's. Writes go through server actions instead.
 */
export function useRead(): <N extends ReadName>(name: N, input: unknown) => Promise<ReadData<N>> {
  const { prefix } = useSource();
  return useCallback((name, input) => fetchRead(name, input, undefined, prefix), [prefix]);
}
