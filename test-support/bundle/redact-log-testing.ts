import { createHash, randomBytes } from "node:crypto";
import { decompress } from "@mongodb-js/zstd";
import { REDACT_KINDS, type RedactKind } from "../../lib/bundle/detectors";
import { type RedactLogOptions, redactLog } from "../../lib/bundle/redact-log";
import { Redactor } from "../../lib/bundle/redactor";
import { tempFolder } from "../test-temp";

// What lib/bundle/redact-log*.test.ts share: a redactor, small logs and a sink that keeps each write.

export const HEX = "0123456789abcdef0123456789abcdef01234567";
export const MAIL = "zora.quist@northwind.example";

const all = new Set<RedactKind>([...REDACT_KINDS, "keyword"]);
export const fresh = () => new Redactor({ homes: [], hosts: [], keywords: ["falconx"] }, all);
export const temp = () => tempFolder("oda-redact-log-");

/** A message line of a log, as JSON text. */
export const message = (text: string, ts = "2026-01-01T00:00:00Z") =>
  JSON.stringify({ type: "message", role: "user", text, ts });

/** `n` characters of letters and spaces from a seed: text that zstd hardly shrinks, with nothing to redact. */
export function filler(seed: number, n: number): string {
  const out = Buffer.alloc(n);
  for (let at = 0, i = 0; at < n; i++)
    for (const b of createHash("sha256").update(`${seed}:${i}`).digest())
      if (at < n) out[at++] = b % 8 ? 97 + (b % 26) : 32;
  return out.toString("latin1");
}

/** Like `filler`, not the same twice: fast enough for tens of megabytes. */
export function noise(n: number): string {
  const out = randomBytes(n);
  for (let i = 0; i < n; i++) out[i] = (out[i] as number) % 8 ? 97 + ((out[i] as number) % 26) : 32;
  return out.toString("latin1");
}

/** `redactLog` into a sink (or none, `withOut` false); `writes`: each write's bytes, in order. */
export async function run(file: string, options: Partial<RedactLogOptions> & { compressed: boolean }, withOut = true) {
  const writes: Buffer[] = [];
  const out = { write: (data: Buffer) => void writes.push(Buffer.from(data)) };
  const res = await redactLog(file, withOut ? out : null, { redactor: fresh(), dropText: false, ...options });
  return { res, written: Buffer.concat(writes), writes };
}

/** Decodes zstd frames one after the other (the output of a compressed redaction). */
export async function unzstd(data: Buffer): Promise<string> {
  return (await decompress(data)).toString("utf8");
}
