import type { Readable } from "node:stream";
import type { PermissionType } from "~/shared/permissions";
import type { ExcelColumn, RoundTripReport } from "./round-trip.server";

/**
 * One grid's Excel round trip as the rest of the portal sees it: what `portal export` and an edited export
 * sent through /captura/manual need, without knowing the feature. Each feature with a round trip exports its datasets
 * from its own `round-trip.server.ts`; app/round-trips.server.ts lists them. `Route` is the portal's route id type
 * (app/access.ts), left open here so that app/shared names no rule.
 */
export type RoundTripDataset<Route extends string = string> = {
  /** The dataset a file names in its hidden `_portal:<id>?<scope>` column. */
  id: string;
  /** The name `portal export <name>` takes. */
  exportName: string;
  /**
   * "hr" when its rows are HR data: a file of it stored in the portal (an edited export sent back) is an HR file, and
   * leaves scoped to the viewer's branches with the CPF masked (app/models/files.fields.ts, FileDataClass).
   */
  dataClass?: "hr";
  /** The visible columns, when they do not depend on the scope (forecast's months and master data's do). */
  columns?: readonly ExcelColumn<never>[];
  /** The scope fields the export takes, as the screen's URL names them; `listFields` may be given more than once. */
  scopeFields: readonly string[];
  listFields?: readonly string[];
  /**
   * The XLSX of the rows of `scope`, from the screen's own exporter, as the operator asks for it (the operator sees
   * everything); throws RoundTripScopeError for a scope it refuses.
   */
  exportXlsx(scope: URLSearchParams): Promise<Response>;
  /** How an edited export comes back; absent for a dataset exported for reading only. */
  returned?: {
    /** Who may save: the write rule of this route (the screen's Excel route). */
    writeRoute: Route;
    /** A check of the uploader against the file's scope beyond the route's rule (HR: the branch must be theirs). */
    mayImport?(user: RoundTripUser, scope: URLSearchParams): Promise<boolean>;
    /**
     * Applies the file `open()` reads for `scope` with the screen's rules, as `user`: the report, the dataset it is
     * kept under, and the screen path of the scope (where the report is shown, `?excel=<id>`).
     */
    apply(open: () => Promise<Readable>, scope: URLSearchParams, user: RoundTripUser): Promise<RoundTripApplied>;
  };
};

/** Who sends an edited export back; `type` their permission type as it stands (absent or empty: none). */
export type RoundTripUser = { email: string; name: string; type?: PermissionType | "" | null };

export type RoundTripApplied =
  | { ok: true; dataset: string; report: RoundTripReport; screen: string }
  | { ok: false; message: string };

/** A scope an export refuses: a message, or the schema's issues (each `path: message`). */
export class RoundTripScopeError extends Error {
  constructor(
    readonly problem: string | { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> },
  ) {
    super(typeof problem === "string" ? problem : problem.issues.map((i) => i.message).join("; "));
    this.name = "RoundTripScopeError";
  }
}

/**
 * The scope's fields, each once (its first value): the object a scope schema parses. One pass over the pairs: the
 * scope comes from a file's header cell, and `scope.get` per key would scan every pair again (quadratic in the keys).
 */
export function scopeRecord(scope: URLSearchParams): Record<string, string | undefined> {
  const first = new Map<string, string>();
  for (const [key, value] of scope) if (!first.has(key)) first.set(key, value);
  return Object.fromEntries(first);
}

/** A lookup of `datasets` by id (a Map: no inherited key answers). */
export function roundTripLookup<D extends { id: string }>(datasets: readonly D[]): (id: string) => D | undefined {
  const byId = new Map(datasets.map((d) => [d.id, d]));
  return (id) => byId.get(id);
}
