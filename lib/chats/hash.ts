import * as crypto from "node:crypto";

/** One-shot hashing (Node ≥ 20.12) costs a fraction of a Hash object's for the small inputs the list hashes. */
export const hashBytes: (algorithm: string, data: Buffer, encoding: "hex" | "base64") => string =
  typeof (crypto as { hash?: unknown }).hash === "function"
    ? (algorithm, data, encoding) => crypto.hash(algorithm, data, encoding)
    : (algorithm, data, encoding) => crypto.createHash(algorithm).update(data).digest(encoding);

/** sha256 (hex) of `data`. */
export function sha256Hex(data: Buffer): string {
  return hashBytes("sha256", data, "hex");
}
