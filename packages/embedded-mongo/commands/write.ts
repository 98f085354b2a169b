/** Write commands: insert, update, delete and findAndModify. */

import { arrayArg, collectionName, docArg, evalLet, validateId } from "../args";
import { rawDocumentsArrayOf, rawDocumentsOf } from "../bson-decode";
import { MongoCommandError, toCommandError } from "../errors";
import { filterCompiler } from "../filters";
import { compileProjection } from "../projection";
import { writeReply } from "../replies";
import type { CommandHandler } from "../runner";
import type { Collection } from "../storage/collection";
import { withIdFirst } from "../storage/doc-writes";
import { assertSupportedValues, type Doc, isPlainObject } from "../values";

export const writeCommands: Record<string, CommandHandler> = {
  insert(cmd, db) {
    const name = collectionName(cmd);
    const docs = arrayArg(cmd.documents, "documents");
    const ordered = cmd.ordered !== false;
    const writeErrors: Doc[] = [];
    let n = 0;
    const raws = rawDocumentsOf(docs);
    const array = rawDocumentsArrayOf(docs);
    const prepare = (raw: unknown): Doc => {
      if (!isPlainObject(raw)) throw new MongoCommandError("BadValue", "each document to insert must be an object");
      assertSupportedValues(raw, "document");
      const doc = withIdFirst(raw);
      validateId(doc._id);
      return doc;
    };
    const fail = (error: unknown, i: number): boolean => {
      writeErrors.push(toCommandError(error).toWriteError(i));
      return ordered;
    };
    let coll: Collection | undefined;
    this.catalog.insertBatch(() => {
      for (let k = 0; k < docs.length; k++) {
        let doc: Doc;
        try {
          doc = prepare(docs[k]);
        } catch (error) {
          if (fail(error, k)) break;
          continue;
        }
        // The collection is created by the first document that goes in (a bad name fails the command).
        coll ??= this.catalog.ensureCollection(db, name);
        try {
          // The bytes it came in serve the journal when they hold its _id (moved first there, as stored).
          this.catalog.insert(coll, doc, raws?.[k]);
          n++;
        } catch (error) {
          if (fail(error, k)) break;
        }
      }
      // When every document went in, the journal takes the command's documents array as it arrived.
    }, array && { documents: array, count: docs.length });
    return writeReply({ n }, writeErrors);
  },
  async update(cmd, db) {
    const name = collectionName(cmd);
    const statements = arrayArg(cmd.updates, "updates");
    const ordered = cmd.ordered !== false;
    const writeErrors: Doc[] = [];
    const upserted: Doc[] = [];
    let n = 0;
    let nModified = 0;
    for (let i = 0; i < statements.length; i++) {
      const stmt = statements[i];
      try {
        if (!isPlainObject(stmt)) throw new MongoCommandError("BadValue", "each update statement must be an object");
        const r = await this.applyUpdate(db, name, stmt, false, cmd);
        n += r.matched;
        nModified += r.modified;
        if (r.upsertedId !== undefined) {
          n += 1;
          upserted.push({ index: i, _id: r.upsertedId });
        }
        if (r.error) throw r.error;
      } catch (error) {
        writeErrors.push(toCommandError(error).toWriteError(i));
        if (ordered) break;
      }
    }
    const reply: Doc = { n, nModified };
    if (upserted.length) reply.upserted = upserted;
    return writeReply(reply, writeErrors);
  },
  async delete(cmd, db) {
    const name = collectionName(cmd);
    const statements = arrayArg(cmd.deletes, "deletes");
    const ordered = cmd.ordered !== false;
    const writeErrors: Doc[] = [];
    let n = 0;
    const vars = evalLet(cmd.let);
    const compile = filterCompiler(vars);
    for (let i = 0; i < statements.length; i++) {
      const stmt = statements[i];
      try {
        if (!isPlainObject(stmt)) throw new MongoCommandError("BadValue", "each delete statement must be an object");
        const filter = docArg(stmt.q, "q");
        if (stmt.limit !== 0 && stmt.limit !== 1)
          throw new MongoCommandError("BadValue", "The limit field in delete objects must be 0 or 1");
        // Looked up per statement: an earlier statement's yields may have let a drop or a create in.
        const coll = this.catalog.getCollection(db, name);
        if (!coll) continue;
        if (stmt.limit === 1) {
          const matched = this.targets(db, coll, filter, { limit: 1, hint: stmt.hint, cmd, op: "remove", compile });
          for (const doc of matched) this.catalog.remove(coll, doc);
          n += matched.length;
          continue;
        }
        const r = await this.removeMany(db, coll, filter, stmt.hint, cmd, vars);
        n += r.removed;
        if (r.error) throw r.error;
      } catch (error) {
        writeErrors.push(toCommandError(error).toWriteError(i));
        if (ordered) break;
      }
    }
    return writeReply({ n }, writeErrors);
  },
  async findAndModify(cmd, db) {
    const name = collectionName(cmd);
    const filter = docArg(cmd.query, "query");
    const remove = cmd.remove === true;
    if (remove && cmd.update !== undefined)
      throw new MongoCommandError("FailedToParse", "Cannot specify both an update and remove=true");
    if (!remove && cmd.update === undefined)
      throw new MongoCommandError("FailedToParse", "Either an update or remove=true must be specified");
    if (remove && cmd.upsert === true)
      throw new MongoCommandError("FailedToParse", "Cannot specify both upsert=true and remove=true");
    const fields = cmd.fields === undefined ? undefined : docArg(cmd.fields, "fields");
    const vars = evalLet(cmd.let);
    const projector = fields && Object.keys(fields).length > 0 ? compileProjection(fields, "find") : undefined;
    const project = (doc: Doc | null | undefined): Doc | null => {
      if (!doc) return null;
      return projector ? projector(doc, vars) : doc;
    };
    const coll = this.catalog.getCollection(db, name);
    if (remove) {
      const target = coll
        ? this.targets(db, coll, filter, {
            sort: cmd.sort as Doc | undefined,
            limit: 1,
            hint: cmd.hint,
            cmd,
            op: "findAndModify",
            compile: filterCompiler(vars),
          })[0]
        : undefined;
      if (!target || !coll) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
      this.catalog.remove(coll, target);
      return { lastErrorObject: { n: 1 }, value: project(target), ok: 1 };
    }
    const r = await this.applyUpdate(
      db,
      name,
      {
        q: filter,
        u: cmd.update,
        upsert: cmd.upsert === true,
        multi: false,
        arrayFilters: cmd.arrayFilters,
        sort: cmd.sort,
        hint: cmd.hint,
      },
      true,
      cmd,
    );
    if (r.error) throw r.error;
    const returnNew = cmd.new === true;
    if (r.upsertedId !== undefined) {
      return {
        lastErrorObject: { n: 1, updatedExisting: false, upserted: r.upsertedId },
        value: returnNew ? project(r.after) : null,
        ok: 1,
      };
    }
    if (r.matched === 0) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? r.after : r.before), ok: 1 };
  },
};
