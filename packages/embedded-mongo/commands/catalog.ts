/** Commands on the catalogue: databases, collections and indexes. */
import { BSON } from "bson";
import { Query } from "mingo";
import { batchSizeOf, collectionName } from "../args";
import { MongoCommandError } from "../errors";
import { type IndexSpec, sameKey, sameOptions } from "../index-spec";
import { normaliseIndexSpec } from "../normalise-index-spec";
import type { CommandHandler } from "../runner";
import type { Collection } from "../storage/collection";
import { isTextSpec } from "../text";
import { type Doc, isPlainObject } from "../values";

export const catalogCommands: Record<string, CommandHandler> = {
  listDatabases(cmd) {
    const databases = [...this.catalog.dbs.entries()].map(([name, colls]) => {
      let size = 0;
      if (cmd.nameOnly !== true)
        for (const c of colls.values()) for (const d of c.docs.values()) size += BSON.calculateObjectSize(d);
      return { name, sizeOnDisk: size, empty: colls.size === 0 };
    });
    let list: Doc[] = databases;
    if (isPlainObject(cmd.filter)) list = new Query(cmd.filter).find(list).all() as Doc[];
    if (cmd.nameOnly === true) return { databases: list.map((d) => ({ name: d.name })), ok: 1 };
    const totalSize = databases.reduce((s, d) => s + d.sizeOnDisk, 0);
    return { databases: list, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
  },
  listCollections(cmd, db) {
    const colls = [...(this.catalog.dbs.get(db)?.values() ?? [])];
    let infos: Doc[] = colls.map((c) => ({
      name: c.name,
      type: "collection",
      options: c.options,
      info: { readOnly: false, uuid: c.uuid },
      idIndex: { v: 2, key: { _id: 1 }, name: "_id_" },
    }));
    if (isPlainObject(cmd.filter)) infos = new Query(cmd.filter).find(infos).all() as Doc[];
    if (cmd.nameOnly === true) infos = infos.map((i) => ({ name: i.name, type: i.type }));
    return this.cursorReply(`${db}.$cmd.listCollections`, infos, batchSizeOf(cmd.cursor), false);
  },
  create(cmd, db) {
    const name = collectionName(cmd);
    if (this.catalog.getCollection(db, name)) {
      throw new MongoCommandError("NamespaceExists", `Collection ${db}.${name} already exists.`);
    }
    const options: Doc = {};
    for (const [k, v] of Object.entries(cmd)) {
      if (k === "create" || k.startsWith("$") || k === "lsid" || k === "txnNumber" || k === "writeConcern") continue;
      if (k === "capped" || k === "viewOn" || k === "pipeline" || k === "timeseries" || k === "clusteredIndex") {
        throw new MongoCommandError(
          "InvalidOptions",
          `The embedded server does not support the collection option '${k}'`,
        );
      }
      options[k] = v;
    }
    this.catalog.createCollection(db, name, options);
    return { ok: 1 };
  },
  drop(cmd, db) {
    const name = collectionName(cmd);
    if (name === "system.profile") {
      this.profileState(db).entries.length = 0;
      return { ns: `${db}.${name}`, ok: 1 };
    }
    const dropped = this.catalog.dropCollection(db, name);
    this.dropCursors(`${db}.${name}`);
    return dropped ? { nIndexesWas: dropped.indexes.size + 1, ns: dropped.ns, ok: 1 } : { ok: 1 };
  },
  dropDatabase(_cmd, db) {
    this.catalog.dropDatabase(db);
    for (const [id, c] of this.cursors) if (c.ns.startsWith(`${db}.`)) this.cursors.delete(id);
    return { dropped: db, ok: 1 };
  },
  async createIndexes(cmd, db) {
    const name = collectionName(cmd);
    if (!Array.isArray(cmd.indexes) || cmd.indexes.length === 0) {
      throw new MongoCommandError("BadValue", "Must specify at least one index to create");
    }
    const specs = cmd.indexes.map((raw) => normaliseIndexSpec(raw));
    const existed = this.catalog.getCollection(db, name);
    const coll = existed ?? this.catalog.createCollection(db, name);
    const before = coll.indexes.size + 1;
    // Each spec checked against the collection's indexes and the command's earlier specs, before any is built.
    const wanted: IndexSpec[] = [];
    for (const spec of specs) {
      if (sameKey(spec.key, { _id: 1 }) || alreadyThere(specsOf(coll), spec) || alreadyThere(wanted, spec)) continue;
      wanted.push(spec);
    }
    // Built while other commands go on; the checks are made again for each when it is done, in the step that puts it in.
    const created = await this.catalog.createIndexesAsync(coll, wanted, (spec) => {
      if (this.catalog.getCollection(db, name) !== coll) {
        throw new MongoCommandError(
          "IndexBuildAborted",
          `Index build failed: ${coll.ns}: the collection was dropped while index ${spec.name} was being built`,
        );
      }
      return !alreadyThere(specsOf(coll), spec);
    });
    const reply: Doc = {
      numIndexesBefore: before,
      numIndexesAfter: coll.indexes.size + 1,
      createdCollectionAutomatically: !existed,
      ok: 1,
    };
    if (created === 0) reply.note = "all indexes already exist";
    return reply;
  },
  listIndexes(cmd, db) {
    const name = collectionName(cmd);
    const coll = this.catalog.getCollection(db, name);
    if (!coll) throw new MongoCommandError("NamespaceNotFound", `ns does not exist: ${db}.${name}`);
    return this.cursorReply(coll.ns, coll.indexSpecs() as unknown as Doc[], batchSizeOf(cmd.cursor), false);
  },
  dropIndexes(cmd, db) {
    const name = collectionName(cmd);
    const coll = this.catalog.getCollection(db, name);
    if (!coll) throw new MongoCommandError("NamespaceNotFound", `ns not found ${db}.${name}`);
    const was = coll.indexes.size + 1;
    const target = cmd.index;
    const names: string[] = [];
    if (target === "*") names.push(...coll.indexes.keys());
    else if (typeof target === "string") names.push(target);
    else if (Array.isArray(target)) names.push(...target.map(String));
    else if (isPlainObject(target)) {
      const found = [...coll.indexes.values()].find((i) => sameKey(i.spec.key, target));
      if (!found) throw new MongoCommandError("IndexNotFound", `can't find index with key: ${JSON.stringify(target)}`);
      names.push(found.spec.name);
    } else
      throw new MongoCommandError(
        "BadValue",
        "dropIndexes needs 'index': a name, an array of names, a key pattern or '*'",
      );
    for (const n of names) {
      if (n === "_id_") throw new MongoCommandError("InvalidOptions", "cannot drop _id index");
      if (!coll.indexes.has(n)) throw new MongoCommandError("IndexNotFound", `index not found with name [${n}]`);
    }
    for (const n of names) this.catalog.dropIndex(coll, n);
    return { nIndexesWas: was, ok: 1 };
  },
};

/** The specs of a collection's indexes (the _id index aside). */
function specsOf(coll: Collection): IndexSpec[] {
  return [...coll.indexes.values()].map((index) => index.spec);
}

/**
 * True when `specs` already hold this very index (nothing to build); throws MongoDB's conflict errors when an
 * index of the same name or key differs from it.
 */
function alreadyThere(specs: readonly IndexSpec[], spec: IndexSpec): boolean {
  const sameName = specs.find((i) => i.name === spec.name);
  if (sameName) {
    if (sameKey(sameName.key, spec.key) && sameOptions(sameName, spec)) return true;
    if (sameKey(sameName.key, spec.key)) {
      throw new MongoCommandError(
        "IndexOptionsConflict",
        `An equivalent index already exists with the same name but different options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
      );
    }
    throw new MongoCommandError(
      "IndexKeySpecsConflict",
      `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
    );
  }
  const sameKeyIndex = specs.find((i) => sameKey(i.key, spec.key));
  if (!sameKeyIndex) return false;
  if (sameOptions(sameKeyIndex, spec)) return true;
  if (isTextSpec(spec)) {
    throw new MongoCommandError(
      "IndexOptionsConflict",
      `An equivalent index already exists with a different name and options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKeyIndex)}; only one text index per collection allowed`,
    );
  }
  throw new MongoCommandError(
    "IndexOptionsConflict",
    `Index already exists with a different name: ${sameKeyIndex.name}`,
  );
}
