/** Replay at start: a record applied to the catalogue, and the index orders a snapshot recorded. */
import type { Binary } from "bson";
import { ORDER_VERSION } from "../bson-order";
import type { IndexSpec } from "../index-spec";
import type { Catalog } from "../storage/catalog";
import { Collection, createIndexObject } from "../storage/collection";
import { withIdFirst } from "../storage/doc-writes";
import type { StoredOrders } from "../storage/index-build";
import { type Doc, keyOf } from "../values";
import { LITTLE_ENDIAN, RecordType, splitNs } from "./records";

export function replay(catalog: Catalog, type: number, body: Doc): void {
  const collOf = (ns: string, create: boolean): Collection | undefined => {
    const [db, name] = splitNs(ns);
    let colls = catalog.dbs.get(db);
    if (!colls) {
      if (!create) return undefined;
      catalog.dbs.set(db, (colls = new Map()));
    }
    let coll = colls.get(name);
    if (!coll && create) colls.set(name, (coll = new Collection(db, name)));
    return coll;
  };
  switch (type) {
    case RecordType.PutMany: {
      const coll = collOf(body.n as string, true)!;
      for (const each of body.d as Doc[]) {
        const doc = withIdFirst(each);
        coll.docs.set(keyOf(doc._id), doc);
      }
      break;
    }
    case RecordType.Put: {
      const doc = body.d as Doc;
      collOf(body.n as string, true)!.docs.set(keyOf(doc._id), doc);
      break;
    }
    case RecordType.Delete:
      collOf(body.n as string, false)?.docs.delete(keyOf(body.id));
      break;
    case RecordType.CreateCollection: {
      const [db, name] = splitNs(body.n as string);
      if (!catalog.getCollection(db, name)) {
        let colls = catalog.dbs.get(db);
        if (!colls) catalog.dbs.set(db, (colls = new Map()));
        colls.set(name, new Collection(db, name, (body.o as Doc) ?? {}));
      }
      break;
    }
    case RecordType.DropCollection: {
      const [db, name] = splitNs(body.n as string);
      catalog.dbs.get(db)?.delete(name);
      if (catalog.dbs.get(db)?.size === 0) catalog.dbs.delete(db);
      break;
    }
    case RecordType.CreateIndex: {
      const spec = body.s as IndexSpec;
      collOf(body.n as string, true)!.indexes.set(spec.name, createIndexObject(spec));
      break;
    }
    case RecordType.DropIndex:
      collOf(body.n as string, false)?.indexes.delete(body.x as string);
      break;
    case RecordType.DropDatabase:
      catalog.dbs.delete(body.db as string);
      break;
    case RecordType.Manifest:
    case RecordType.IndexOrder:
      break;
    default:
      throw new Error(`Unknown journal record type ${type}`);
  }
}

/** An index's order as a start reads it: its positions so far, and whether its end said it was recorded sorted. */
export type Filling = { order: Uint32Array; filled: number; sorted: boolean };

/**
 * Adds an IndexOrder record's positions to its index's order; a slice that does not follow on spoils that order. The
 * mark of an order recorded sorted (sortedMark) counts only right after the order's last slice, with this ORDER_VERSION.
 */
export function readOrderSlice(body: Doc, docs: number, filling: Map<string, Filling | null>): void {
  const name = body.x as string;
  let state = filling.get(name);
  if (state === null) return;
  if (!state) filling.set(name, (state = { order: new Uint32Array(docs), filled: 0, sorted: false }));
  if (state.sorted) {
    // Nothing follows the mark.
    filling.set(name, null);
    return;
  }
  if (body.s !== undefined) {
    if (body.s === ORDER_VERSION && body.f === state.filled) state.sorted = true;
    return;
  }
  const raw = (body.o as Binary).buffer;
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.length);
  const count = bytes.length >>> 2;
  if (body.f !== state.filled || state.filled + count > state.order.length || bytes.length % 4 !== 0) {
    filling.set(name, null);
    return;
  }
  if (LITTLE_ENDIAN) {
    // The file's uint32s are this machine's: copied as bytes into the order's own.
    new Uint8Array(state.order.buffer, state.order.byteOffset + 4 * state.filled, 4 * count).set(
      bytes.subarray(0, 4 * count),
    );
  } else {
    for (let i = 0; i < count; i++) state.order[state.filled + i] = bytes.readUInt32LE(4 * i);
  }
  state.filled += count;
}

export function ordersOf(stored: StoredOrders, filling: Map<string, Filling | null>): StoredOrders {
  for (const [name, state] of filling) {
    if (!state) continue;
    stored.orders.set(name, state.order.subarray(0, state.filled));
    if (state.sorted) stored.sorted.add(name);
  }
  return stored;
}

export function rebuildIndexes(catalog: Catalog): void {
  for (const colls of catalog.dbs.values()) {
    for (const coll of colls.values()) coll.rebuildIndexes();
  }
}
