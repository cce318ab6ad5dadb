"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { freeStaleLock } from "@/lib/chats";
import { runAction } from "@/server/access/action";
import { requireLogFolder } from "@/server/source/context";

// Chat ids are data: the lib finds the chat folder by decoding folder names, never by joining a path.
const ZFree = z.object({ id: z.string().min(1).max(1024), expectPid: z.number().int().positive() });

/**
 * Frees a chat whose lock a dead process left behind, after the person
 * confirmed it naming that process; the lib refuses unless the lock is provably
 * stale and still names `expectPid`. The dashboard's only write in a chat folder.
 */
export async function freeStaleLockAction(input: unknown) {
  return runAction(
    ZFree,
    input,
    async ({ id, expectPid }, ctx) => {
      const { logDir } = requireLogFolder(ctx);
      const status = freeStaleLock(logDir, id, { expectPid });
      revalidatePath("/chats");
      return { state: status.state, reason: status.reason };
    },
    { writes: true },
  );
}
