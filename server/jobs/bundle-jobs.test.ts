import { describe, expect, it, vi } from "vitest";
import { CANCELLED } from "@/lib/bundle/in-worker";
import { testScope } from "@/test-support/bundle/test-scope";
import { plantSecrets } from "@/test-support/bundle/testing";
import { tempFolder } from "@/test-support/test-temp";
import { ABANDONED_AFTER_MS, bundleJob, cancelAbandonedJobs, startPreviewJob } from "./bundle-jobs";

/** A job ended because nobody polled it is shown as cancelled, with its own sentence, never as failed. */
describe("an abandoned bundle job", () => {
  it("is cancelled, not failed, and says why", async () => {
    const roots = await plantSecrets(tempFolder("oda-bundle-jobs-"));
    const job = startPreviewJob(roots, testScope(), "t");
    expect(cancelAbandonedJobs(Date.now() + ABANDONED_AFTER_MS + 1)).toContain(job.id);
    await vi.waitFor(() => expect(bundleJob(job.id)?.state).not.toBe("running"), { timeout: 15_000 });
    expect(bundleJob(job.id)).toMatchObject({ state: "cancelled", error: CANCELLED, preview: null });
  });

  it("that failed on its own is still failed", async () => {
    const roots = await plantSecrets(tempFolder("oda-bundle-jobs-"));
    const job = startPreviewJob(roots, testScope({ chats: ["no-such-chat"] }), "t");
    await vi.waitFor(() => expect(bundleJob(job.id)?.state).not.toBe("running"), { timeout: 15_000 });
    expect(bundleJob(job.id)?.state).toBe("failed");
    expect(bundleJob(job.id)?.error).toContain("no-such-chat");
  });
});
