/** $unwind: one document per array element (includeArrayIndex, preserveNullAndEmptyArrays). */
import { MongoCommandError } from "../errors";
import { type Doc, isPlainObject } from "../values";
import { setPathCopy } from "./add-fields";
import { Stage, type StageFactory } from "./stage";

export class UnwindStage extends Stage {
  private readonly parts: string[];
  private readonly indexField: string | undefined;
  private readonly preserve: boolean;
  constructor(spec: unknown) {
    super();
    let path: unknown = spec;
    let indexField: string | undefined;
    let preserve = false;
    if (isPlainObject(spec)) {
      for (const [k, v] of Object.entries(spec)) {
        if (k === "path") path = v;
        else if (k === "includeArrayIndex") {
          if (typeof v !== "string")
            throw new MongoCommandError(
              28810,
              "expected a non-empty string for the includeArrayIndex option to $unwind stage",
            );
          if (v === "")
            throw new MongoCommandError(
              28810,
              "expected a non-empty string for the includeArrayIndex option to $unwind stage",
            );
          if (v.startsWith("$"))
            throw new MongoCommandError(
              28822,
              `includeArrayIndex option to $unwind stage should not be prefixed with a '$': ${v}`,
            );
          indexField = v;
        } else if (k === "preserveNullAndEmptyArrays") {
          if (typeof v !== "boolean")
            throw new MongoCommandError(
              28809,
              "expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage",
            );
          preserve = v;
        } else throw new MongoCommandError(28811, `unrecognized option to $unwind stage: ${k}`);
      }
      if (path === undefined || path === spec) throw new MongoCommandError(28812, "no path specified to $unwind stage");
    } else if (typeof spec !== "string") {
      throw new MongoCommandError(15981, "expected either a string or an object as specification for $unwind stage");
    }
    if (typeof path !== "string") throw new MongoCommandError(28808, "expected a string as the path for $unwind stage");
    if (!path.startsWith("$"))
      throw new MongoCommandError(28818, `path option to $unwind stage should be prefixed with a '$': ${path}`);
    this.parts = path.slice(1).split(".");
    this.indexField = indexField;
    this.preserve = preserve;
  }
  private emit(doc: Doc, value: unknown, index: number | null, replace: boolean): boolean {
    let out: Doc | undefined = replace ? setPathCopy(doc, this.parts, value) : doc;
    if (!out) out = doc;
    if (this.indexField !== undefined)
      out = setPathCopy(out === doc ? { ...doc } : out, this.indexField.split("."), index) ?? out;
    return this.next.push(out);
  }
  push(doc: Doc): boolean {
    let v: unknown = doc;
    for (const p of this.parts) v = isPlainObject(v) ? v[p] : undefined;
    if (!Array.isArray(v)) {
      if (v === undefined || v === null) return this.preserve ? this.emit(doc, v, null, false) : true;
      return this.emit(doc, v, null, false);
    }
    if (v.length === 0) {
      if (!this.preserve) return true;
      // An empty array is kept as a missing field.
      const out = setPathCopy(doc, this.parts, undefined) ?? doc;
      return this.emit(out, undefined, null, false);
    }
    for (let i = 0; i < v.length; i++) {
      if (!this.emit(doc, v[i], i, true)) return false;
    }
    return true;
  }
}

export const unwindStage: StageFactory = ({ arg }) => new UnwindStage(arg);
