/**
 * A chart label in the room it has: whole when it fits, else cut in the
 * middle ("gpt-4o-mi…2026-09", "/home/a…/Übersetzungen"), so both its start
 * and its end still tell labels apart. `width` measures a string in the same
 * units as `room` (canvas pixels in the chart). The chart shows the whole
 * label on hover, and its table view always does.
 */
export function fitLabel(label: string, room: number, width: (s: string) => number): string {
  if (width(label) <= room) return label;
  const chars = Array.from(label); // code points: a cut never splits a character in two
  const cut = (keep: number) => {
    const head = Math.ceil(keep / 2);
    return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (keep - head)).join("")}`;
  };
  // The most characters that fit around the ellipsis (binary search: widths grow with what is kept).
  let lo = 0;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (width(cut(mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? "…" : cut(lo);
}
