import { describe, expect, it } from "vitest";
import { errorBody, OdaError } from "./errors";

describe("the one refusal shape", () => {
  it("gives an OdaError's code and exact sentence, with its field, and keeps its data off the wire", () => {
    const refusal = new OdaError("refused", "A memory title is limited to 120 characters; this one has 121.", {
      field: "title",
      data: { paths: ["/logs/a"] },
    });
    expect(errorBody(refusal, "generic")).toEqual({
      code: "refused",
      message: "A memory title is limited to 120 characters; this one has 121.",
      fieldErrors: { title: "A memory title is limited to 120 characters; this one has 121." },
    });
    expect(errorBody(new OdaError("not_found", "No such chat."), "generic")).toEqual({
      code: "not_found",
      message: "No such chat.",
    });
  });

  it("answers any other error with the caller's generic sentence, never its message", () => {
    expect(errorBody(new Error("ENOENT: /home/ana/secret"), "The chat list could not be read.")).toEqual({
      code: "unexpected",
      message: "The chat list could not be read.",
    });
  });
});
