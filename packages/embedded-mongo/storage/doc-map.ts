import { coldState, warm } from "../cold";
import type { Doc } from "../values";

/**
 * A collection's documents by id key. While some stored document is cold (cold.ts), every document it gives is
 * warmed first; otherwise it is a Map.
 *
 * A start that loads a collection cold hands its documents over without putting them in the map (`adopt`): a
 * million entries are a second of a start. They go in, in their order and before anything else, at the first call
 * that needs the map, or a slice at a time in the background pass (`settleAsync`); `size` counts them meanwhile.
 */
export class DocMap extends Map<string, Doc> {
  private pending: { ids: string[]; docs: Doc[]; at: number } | undefined;

  /** An empty map's documents, in order, by their id keys: put in it when first needed. */
  adopt(ids: string[], docs: Doc[]): void {
    if (super.size !== 0 || this.pending !== undefined) throw new Error("DocMap.adopt: the map is not empty");
    if (ids.length > 0) this.pending = { ids, docs, at: 0 };
  }

  static {
    // Map#size counts the adopted documents not in the map yet (an accessor, which TypeScript declares a property).
    const inMap = Object.getOwnPropertyDescriptor(Map.prototype, "size")!.get!;
    // `this`, not `DocMap`: bundled as `var DocMap = class …`, the name is bound only after the static blocks ran.
    // biome-ignore lint/complexity/noThisInStatic: see the line above
    Object.defineProperty(this.prototype, "size", {
      get(this: DocMap): number {
        const pending = this.pending;
        return (inMap.call(this) as number) + (pending === undefined ? 0 : pending.ids.length - pending.at);
      },
    });
  }

  /** Puts the adopted documents in, a slice at a time (a call that needs the map meanwhile puts the rest in). */
  async settleAsync(pause: () => Promise<void>): Promise<void> {
    for (let pending = this.pending; pending !== undefined && pending === this.pending; pending = this.pending) {
      const stop = Math.min(pending.ids.length, pending.at + 16_384);
      for (; pending.at < stop; pending.at++) super.set(pending.ids[pending.at], pending.docs[pending.at]);
      if (pending.at === pending.ids.length) this.pending = undefined;
      else await pause();
    }
  }

  private settle(): void {
    const pending = this.pending!;
    this.pending = undefined;
    for (let at = pending.at; at < pending.ids.length; at++) super.set(pending.ids[at], pending.docs[at]);
  }

  override get(key: string): Doc | undefined {
    if (this.pending !== undefined) this.settle();
    const doc = super.get(key);
    if (coldState.count !== 0 && doc !== undefined) warm(doc);
    return doc;
  }

  override has(key: string): boolean {
    if (this.pending !== undefined) this.settle();
    return super.has(key);
  }

  override set(key: string, doc: Doc): this {
    if (this.pending !== undefined) this.settle();
    return super.set(key, doc);
  }

  override delete(key: string): boolean {
    if (this.pending !== undefined) this.settle();
    return super.delete(key);
  }

  override clear(): void {
    this.pending = undefined;
    super.clear();
  }

  override keys(): MapIterator<string> {
    if (this.pending !== undefined) this.settle();
    return super.keys();
  }

  override values(): MapIterator<Doc> {
    if (this.pending !== undefined) this.settle();
    return coldState.count === 0 ? super.values() : warming(super.values(), (doc) => doc);
  }

  override entries(): MapIterator<[string, Doc]> {
    if (this.pending !== undefined) this.settle();
    return coldState.count === 0 ? super.entries() : warming(super.entries(), (entry) => entry[1]);
  }

  override [Symbol.iterator](): MapIterator<[string, Doc]> {
    return this.entries();
  }

  override forEach(visit: (doc: Doc, key: string, map: Map<string, Doc>) => void, thisArg?: unknown): void {
    for (const [key, doc] of this.entries()) visit.call(thisArg, doc, key, this);
  }

  /** The documents as stored, cold ones left cold: for a caller that needs only their identity (a snapshot's numbering). */
  storedValues(): MapIterator<Doc> {
    if (this.pending !== undefined) this.settle();
    return super.values();
  }

  /** The document stored under `key`, a cold one left cold (see storedValues). */
  stored(key: string): Doc | undefined {
    if (this.pending !== undefined) this.settle();
    return super.get(key);
  }
}

function* warming<T>(items: MapIterator<T>, docOf: (item: T) => Doc): MapIterator<T> {
  for (const item of items) {
    if (coldState.count !== 0) warm(docOf(item));
    yield item;
  }
}
