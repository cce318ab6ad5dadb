/**
 * A size in binary units with one decimal ("5.0 GiB"); below 1 KiB the exact
 * count with `byteUnit` ("512 bytes" in sentences, "512 B" in tables). The
 * one formatter behind each page's and command's own wording.
 */
export function formatBinarySize(n: number, byteUnit: string): string {
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u < 0 ? `${n} ${byteUnit}` : `${v.toFixed(1)} ${units[u]}`;
}
