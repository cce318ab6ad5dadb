import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { OdaError } from "@/lib/errors";
import { downloadErrorResponse, primeStream } from "./download";

/** A stream that yields `chunks`, then fails with `error`. */
function failingAfter(chunks: string[], error: Error): Readable {
  return Readable.from(
    (async function* () {
      for (const c of chunks) yield Buffer.from(c);
      throw error;
    })(),
  );
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString();
  return text;
}

describe("downloads", () => {
  it("fail before the answer when the log fails before its first byte", async () => {
    const sentence = "The log cannot be read past byte 0: not a zstd frame. raw log: /x";
    await expect(primeStream(failingAfter([], new OdaError("unusable", sentence)))).rejects.toThrow(sentence);
  });

  it("error the body when the log fails after its first bytes, instead of ending short", async () => {
    const body = await primeStream(failingAfter(["one\n", "two\n"], new OdaError("unusable", "cut")));
    const reader = body.getReader();
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe("one\n");
    expect(Buffer.from((await reader.read()).value as Uint8Array).toString()).toBe("two\n");
    await expect(reader.read()).rejects.toThrow("cut");
  });

  it("pass a whole log through, and an empty one", async () => {
    expect(await readAll(await primeStream(Readable.from([Buffer.from("a\n"), Buffer.from("b\n")])))).toBe("a\nb\n");
    expect(await readAll(await primeStream(Readable.from([])))).toBe("");
  });

  it("answer a refusal with its status and sentence as plain text", async () => {
    const sentence = "/l/c/session.jsonl is a symbolic link that leads outside the log folder; it is not read.";
    const response = await downloadErrorResponse(new OdaError("unusable", sentence));
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe(`${sentence}\n`);
  });

  it("escape every control character of a plain-text sentence (an id with a NUL, a newline, an escape)", async () => {
    const id = "c-\u0000x\ny\u001b[31m\u007f\u0085\u202e";
    const response = await downloadErrorResponse(new OdaError("not_found", `No chat with the id "${id}" exists.`));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(
      'No chat with the id "c-\\u0000x\\u000ay\\u001b[31m\\u007f\\u0085\\u202e" exists.\n',
    );
  });
});
