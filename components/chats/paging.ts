/** Lines are fetched a page at a time. */
export const PAGE = 200;

/** The first line of the page holding line `n`. */
export function pageStart(n: number): number {
  return Math.floor((Math.max(1, n) - 1) / PAGE) * PAGE + 1;
}
