/**
 * Promises kept by key, at most `max` (the oldest goes first): concurrent callers of one key share one computation,
 * and a computation that fails is forgotten, so the next caller tries again. Keys say everything the value depends
 * on; the values are shared and must not be changed. `clear()` forgets them all.
 */
export type PromiseCache<T> = ((key: string, compute: () => Promise<T>) => Promise<T>) & { clear: () => void };

export function promiseCache<T>(max: number): PromiseCache<T> {
  const kept = new Map<string, Promise<T>>();
  const cached = (key: string, compute: () => Promise<T>) => {
    const found = kept.get(key);
    if (found) return found;
    const value = compute();
    if (kept.size >= max) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    value.catch(() => kept.delete(key));
    return value;
  };
  return Object.assign(cached, { clear: () => kept.clear() });
}
