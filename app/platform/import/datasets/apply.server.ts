import type { Db } from "mongodb";
import { deleteFiscalItemsOf, FISCAL_ITEMS, FISCAL_ITEMS_NOK, insertFiscalItems } from "~/models/fiscal.server";
import { applyForecastUpload, FORECAST, FORECAST_NOK, type ForecastUploadRow } from "~/models/forecast.server";
import { FPA_RESPONSIBLES, FPA_RESPONSIBLES_NOK, type FpaResponsible, upsertResponsibles } from "~/models/fpa.server";
import { applyHrUpload, HR_AUX, HR_AUX_NOK, type HrUploadRow } from "~/models/hr.server";
import {
  deleteLedgerMonths,
  insertLedgerRows,
  LEDGER,
  LEDGER_ACCOUNTS,
  LEDGER_NOK,
  upsertLedgerAccounts,
} from "~/models/ledger.server";
import { PLANNING_QUANTITY, PLANNING_QUANTITY_NOK } from "~/models/planning.server";
import { applyPlanningUpload, type PlanningUploadRow } from "~/models/planning-upload.server";
import { type UploadCounts, type UploadMeta, uploadedRowId } from "~/models/upload-rows.server";
import type { DatasetId, DatasetTemplate, ReplaceScope } from "../template";
import type { RowSpool, SpooledRow } from "./spool.server";

/**
 * Where each dataset template writes, and how a fully valid file is applied from its spooled rows. Every apply is
 * idempotent: upserts leave unchanged rows alone and insert with ids derived from (file, key); replaces delete the
 * pairs again and insert the same ids. So a run cut short (a lost lease, a crash) is repaired by the next one.
 */

export const DATASET_COLLECTIONS: Record<
  DatasetId,
  { collection: string; nokCollection: string; touched: readonly string[] }
> = {
  planning_quantity: {
    collection: PLANNING_QUANTITY,
    nokCollection: PLANNING_QUANTITY_NOK,
    touched: [PLANNING_QUANTITY],
  },
  forecast: { collection: FORECAST, nokCollection: FORECAST_NOK, touched: [FORECAST] },
  ledger: { collection: LEDGER, nokCollection: LEDGER_NOK, touched: [LEDGER, LEDGER_ACCOUNTS] },
  hr_aux: { collection: HR_AUX, nokCollection: HR_AUX_NOK, touched: [HR_AUX] },
  fpa_responsibles: { collection: FPA_RESPONSIBLES, nokCollection: FPA_RESPONSIBLES_NOK, touched: [FPA_RESPONSIBLES] },
  fiscal_items: { collection: FISCAL_ITEMS, nokCollection: FISCAL_ITEMS_NOK, touched: [FISCAL_ITEMS] },
};

export type ApplyResult = UploadCounts & { pairs: number; accounts: number };

export const APPLY_BATCH_SIZE = 2_000;
const APPLY_IN_FLIGHT = 2;

/** Runs `step` for each piece of work; `step` is how the caller keeps the work interruptible (lease, stall). */
export type Step = <T>(work: Promise<T>) => Promise<T>;

export async function applySpooled(
  id: DatasetId,
  spool: RowSpool,
  scope: ReplaceScope,
  meta: UploadMeta,
  step: Step,
  onProgress: (rows: number) => void,
): Promise<ApplyResult> {
  const total: ApplyResult = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    pairs: scope.pairs.size,
    accounts: 0,
  };
  await clearReplaced(id, scope, meta, step, total);
  const applyBatch = batchApplier(id, meta, total);
  // Batches hold distinct keys, so two can be applied at once: the next one is prepared while the database works.
  let done = 0;
  const inFlight: Array<Promise<void>> = [];
  const batches = spool.batches(APPLY_BATCH_SIZE);
  try {
    for (;;) {
      const next = await step(batches.next());
      if (next.done) break;
      if (inFlight.length >= APPLY_IN_FLIGHT) await step(inFlight.shift()!);
      const rows = next.value.length;
      const applying = applyBatch(next.value).then(() => {
        done += rows;
        onProgress(done);
      });
      applying.catch(() => undefined); // awaited below
      inFlight.push(applying);
    }
    await step(Promise.all(inFlight));
  } finally {
    await batches.return(undefined).catch(() => undefined);
  }
  return total;
}

/** A replace first removes the pairs the file covers (and the ledger adds its accounts to the chart). */
async function clearReplaced(
  id: DatasetId,
  scope: ReplaceScope,
  meta: UploadMeta,
  step: Step,
  total: ApplyResult,
): Promise<void> {
  if (id === "ledger") {
    const accounts = await step(upsertLedgerAccounts([...scope.accounts.values()], meta));
    total.accounts = accounts.inserted + accounts.updated;
    total.removed = await step(
      deleteLedgerMonths(
        [...scope.pairs.values()].map((p) => ({ businessUnitID: p.businessUnitID, month: p.month! })),
        meta,
      ),
    );
  } else if (id === "fiscal_items") {
    total.removed = await step(
      deleteFiscalItemsOf(
        [...scope.pairs.values()].map((p) => ({ businessUnitID: p.businessUnitID, year: p.year! })),
        meta,
      ),
    );
  }
}

/** How one batch of spooled rows of dataset `id` is written, its counts added to `total`. */
function batchApplier(id: DatasetId, meta: UploadMeta, total: ApplyResult): (batch: SpooledRow[]) => Promise<void> {
  const add = (counts: UploadCounts) => {
    total.inserted += counts.inserted;
    total.updated += counts.updated;
    total.unchanged += counts.unchanged;
    total.removed += counts.removed;
  };
  return async (batch) => {
    const docs = batch.map((b) => b.doc);
    switch (id) {
      case "planning_quantity":
        return add(await applyPlanningUpload(docs as unknown as PlanningUploadRow[], meta));
      case "forecast":
        return add(await applyForecastUpload(docs as unknown as ForecastUploadRow[], meta));
      case "hr_aux":
        return add(await applyHrUpload(docs as unknown as HrUploadRow[], meta));
      case "fpa_responsibles":
        return add(await upsertResponsibles(docs as unknown as FpaResponsible[], meta));
      case "ledger": {
        const rows = batch.map(({ key, doc }) => {
          const { _account: _ignored, ...row } = doc;
          return { _id: uploadedRowId(meta.file, key), ...row };
        });
        // Read the total after the await: two batches are applied at once.
        const inserted = await insertLedgerRows(rows, meta);
        total.inserted += inserted;
        return;
      }
      case "fiscal_items": {
        const inserted = await insertFiscalItems(
          batch.map(({ key, doc }) => ({ _id: uploadedRowId(meta.file, key), ...doc })),
          meta,
        );
        total.inserted += inserted;
        return;
      }
    }
  };
}

/** The templates whose apply looks each batch's keys up (`existingByKey`); a fresh file skips the look-ups. */
const LOOKS_KEYS_UP: ReadonlySet<DatasetId> = new Set(["planning_quantity", "forecast", "hr_aux"]);

export const looksKeysUp = (id: DatasetId): boolean => LOOKS_KEYS_UP.has(id);

/**
 * Whether the collection of a template that looks keys up holds no row whose key starts with one of `values` (one
 * indexed look-up: each has an index led by its key's first field). Then every row of the file is new, and the apply
 * inserts without looking keys up: the first load of a company's history.
 */
export async function holdsNoneOf(
  db: Db,
  template: Pick<DatasetTemplate, "id" | "load">,
  values: readonly unknown[],
): Promise<boolean> {
  if (!looksKeysUp(template.id) || values.length === 0) return false;
  const filter = { [template.load.keyColumns[0]]: { $in: values as unknown[] } };
  return (
    (await db.collection(DATASET_COLLECTIONS[template.id].collection).findOne(filter, { projection: { _id: 1 } })) ===
    null
  );
}
