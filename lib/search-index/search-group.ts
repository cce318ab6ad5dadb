import { ENTRY_SPAN } from "./db";

/** A chat's matching entries: how many, and the first ones (rowids) shown. */
export interface ChatHits {
  count: number;
  first: number[];
}

/** Per chat (cid): its hits. */
export interface ByChat {
  get(cid: number): ChatHits | undefined;
}

/** Matching rowids grouped by chat. */
export interface RowidGroups {
  byChat: ByChat;
  /** The matching chats, by cid. */
  cids: number[];
}

/**
 * Groups matching rowids, given in rowid order, by chat (a hit's chat is in
 * its rowid), keeping each chat's first `perChat`. In rowid order a chat's
 * hits are side by side, so grouping only notes where each chat starts: no
 * map or object per hit, which a rare word in 1,000 chats would pay on every
 * search (mostly before V8 has compiled this loop).
 */
export function groupRowids(rowids: number[], perChat: number): RowidGroups {
  const cids: number[] = [];
  const starts: number[] = [];
  let previous = -1;
  for (let i = 0; i < rowids.length; i++) {
    const cid = Math.floor((rowids[i] as number) / ENTRY_SPAN);
    if (cid !== previous) {
      cids.push(cid);
      starts.push(i);
      previous = cid;
    }
  }
  starts.push(rowids.length);
  const get = (cid: number): ChatHits | undefined => {
    // cids ascend with the rowids: a binary search, for the few chats shown.
    let lo = 0;
    let hi = cids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = cids[mid] as number;
      if (at === cid) {
        const start = starts[mid] as number;
        const end = starts[mid + 1] as number;
        return { count: end - start, first: rowids.slice(start, Math.min(end, start + perChat)) };
      }
      if (at < cid) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  return { byChat: { get }, cids };
}
