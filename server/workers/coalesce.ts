/**
 * Calls of one long read, coalesced by key: a call while none runs starts one; calls while one runs share
 * the next, which starts when the running one ends. So each caller's answer comes from a read started after
 * it asked (a change made just before the call is seen), and however many callers arrive during a read, at
 * most one more is made. The chat list, Home and the search page's status each ask for the index's folder
 * check, a walk of every chat folder (seconds of a thread at 100,000 chats); a page's polling asks again
 * every few seconds.
 *
 * A caller passes the signal of its request (or `null`: it never abandons). A read counts the callers still
 * waiting for it; when the last one's signal aborts, the read's own signal aborts (the worker stops its walk),
 * and a read not yet started is never started: nobody would see its answer (issue 28).
 */

/** One read, running or waiting to start, and how many of its callers still wait for it. */
interface Read<T> {
  promise: Promise<T>;
  waiting: number;
  controller: AbortController;
  settled: boolean;
}

/**
 * The caller of `signal` waits for `r`: when the last caller still waiting leaves before it settles, `last`
 * forgets it and its own signal aborts.
 */
function waitFor<T>(r: Read<T>, signal: AbortSignal | null, last: () => void): Promise<T> {
  r.waiting++;
  if (!signal) return r.promise;
  const leave = () => {
    if (r.settled || --r.waiting > 0) return;
    last();
    r.controller.abort();
  };
  signal.addEventListener("abort", leave, { once: true });
  const off = () => signal.removeEventListener("abort", leave);
  r.promise.then(off, off);
  return r.promise;
}

export function coalesced<A extends unknown[], T>(
  keyOf: (...args: A) => string,
  run: (signal: AbortSignal, ...args: A) => Promise<T>,
): (signal: AbortSignal | null, ...args: A) => Promise<T> {
  const running = new Map<string, Read<T>>();
  const next = new Map<string, Read<T>>();
  const made = (key: string, promise: (r: Read<T>) => Promise<T>): Read<T> => {
    const r: Read<T> = {
      promise: Promise.resolve() as Promise<T>,
      waiting: 0,
      controller: new AbortController(),
      settled: false,
    };
    r.promise = promise(r);
    const settled = () => {
      r.settled = true;
      if (running.get(key) === r) running.delete(key);
    };
    r.promise.then(settled, settled);
    return r;
  };
  const start = (key: string, args: A, r: Read<T>): Promise<T> => {
    running.set(key, r);
    return run(r.controller.signal, ...args);
  };
  const join = (key: string, r: Read<T>, signal: AbortSignal | null): Promise<T> =>
    // Nobody waits: a read not started is dropped (a later call makes another), a running one is told to stop.
    waitFor(r, signal, () => {
      if (next.get(key) === r) next.delete(key);
    });
  return (signal, ...args) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const key = keyOf(...args);
    const queued = next.get(key);
    if (queued) return join(key, queued, signal);
    const current = running.get(key);
    if (!current)
      return join(
        key,
        made(key, (r) => start(key, args, r)),
        signal,
      );
    const after = current.promise.then(
      () => undefined,
      () => undefined,
    );
    const mine = made(key, (r) =>
      after.then(() => {
        if (next.get(key) === r) next.delete(key);
        if (r.controller.signal.aborted) throw r.controller.signal.reason;
        return start(key, args, r);
      }),
    );
    next.set(key, mine);
    return join(key, mine, signal);
  };
}

/**
 * Calls of one read shared by key: a call while one runs joins it, a call while none runs starts one. For a
 * read whose key says all its answer depends on (the chat list's facts of one listing, order and refresh of the
 * index), so a caller may take the running read's answer. As with `coalesced`, each caller passes its request's
 * signal (or `null`: it never abandons); when the last caller still waiting leaves, the read's own signal
 * aborts, and a call after that starts another read.
 */
export function shared<A extends unknown[], T>(
  keyOf: (...args: A) => string,
  run: (signal: AbortSignal, ...args: A) => Promise<T>,
): (signal: AbortSignal | null, ...args: A) => Promise<T> {
  const running = new Map<string, Read<T>>();
  return (signal, ...args) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const key = keyOf(...args);
    let r = running.get(key);
    if (!r || r.controller.signal.aborted) {
      const controller = new AbortController();
      const made: Read<T> = { promise: run(controller.signal, ...args), waiting: 0, controller, settled: false };
      const settled = () => {
        made.settled = true;
        if (running.get(key) === made) running.delete(key);
      };
      made.promise.then(settled, settled);
      running.set(key, made);
      r = made;
    }
    const read = r;
    return waitFor(read, signal, () => {
      if (running.get(key) === read) running.delete(key);
    });
  };
}
