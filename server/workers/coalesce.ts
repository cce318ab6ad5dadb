/**
 * Calls of one long read, coalesced by key: a call while none runs starts one; calls while one runs share
 * the next, which starts when the running one ends. So each caller's answer comes from a read started after
 * it asked (a change made just before the call is seen), and however many callers arrive during a read, at
 * most one more is made. The chat list, Home and the search page's status each ask for the index's folder
 * check, a walk of every chat folder (seconds of a thread at 100,000 chats); a page's polling asks again
 * every few seconds.
 */
export function coalesced<A extends unknown[], T>(
  keyOf: (...args: A) => string,
  run: (...args: A) => Promise<T>,
): (...args: A) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  const next = new Map<string, Promise<T>>();
  const start = (key: string, args: A): Promise<T> => {
    const read = run(...args);
    running.set(key, read);
    const settled = () => {
      if (running.get(key) === read) running.delete(key);
    };
    read.then(settled, settled);
    return read;
  };
  return (...args: A) => {
    const key = keyOf(...args);
    const queued = next.get(key);
    if (queued) return queued;
    const current = running.get(key);
    if (!current) return start(key, args);
    const after = current.then(
      () => undefined,
      () => undefined,
    );
    const mine = after.then(() => {
      next.delete(key);
      return start(key, args);
    });
    next.set(key, mine);
    return mine;
  };
}
