import { CANCEL_CHANNEL, type Db } from "@handoff/db";

type OnCancel = () => void;

interface Watcher {
  ready: Promise<unknown>;
  handlers: Map<string, Set<OnCancel>>;
}

const watchers = new WeakMap<Db, Watcher>();

/**
 * Whole-session cancels reach the worker driving the session by NOTIFY. One LISTEN per pool
 * (not per session) fans out to the drives of this process. Returns the unsubscribe.
 */
export async function onSessionCancel(db: Db, sessionId: string, handler: OnCancel): Promise<() => void> {
  let watcher = watchers.get(db);
  if (!watcher) {
    const handlers = new Map<string, Set<OnCancel>>();
    const ready = db.sql.listen(CANCEL_CHANNEL, (id) => {
      for (const h of handlers.get(id) ?? []) h();
    });
    watcher = { ready, handlers };
    watchers.set(db, watcher);
  }
  await watcher.ready;
  const set = watcher.handlers.get(sessionId) ?? new Set<OnCancel>();
  set.add(handler);
  watcher.handlers.set(sessionId, set);
  return () => {
    set.delete(handler);
    if (set.size === 0) watcher.handlers.delete(sessionId);
  };
}
