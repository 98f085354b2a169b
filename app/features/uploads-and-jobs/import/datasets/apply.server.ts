import type { Db } from "mongodb";
import { FISCAL_ITEMS, FISCAL_ITEMS_NOK, deleteFiscalItemsOf, insertFiscalItems, repositoryFilesNamed, type StoredFile } from "~/models/fiscal.server";
import { applyForecastUpload, FORECAST, FORECAST_NOK, type ForecastUploadRow } from "~/models/forecast.server";
import { FPA_RESPONSIBLES, FPA_RESPONSIBLES_NOK, upsertResponsibles, type FpaResponsible } from "~/models/fpa.server";
import { applyHrUpload, HR_AUX, HR_AUX_NOK, type HrUploadRow } from "~/models/hr.server";
import { stagedBatches, uploadedRowId, type UploadCounts, type UploadMeta } from "~/models/import-staging.server";
import { deleteLedgerMonths, insertLedgerRows, LEDGER, LEDGER_ACCOUNTS, LEDGER_NOK, upsertLedgerAccounts, type UploadedAccount } from "~/models/ledger.server";
import type { BusinessUnitId } from "~/models/reports.fields";
import { PLANNING_QUANTITY, PLANNING_QUANTITY_NOK } from "~/models/planning.server";
import { applyPlanningUpload, type PlanningUploadRow } from "~/models/planning-upload.server";
import type { DatasetId } from "./definitions";

/**
 * Where each dataset template writes, and how a fully valid file is applied from its staged rows. Every apply is
 * idempotent: upserts leave unchanged rows alone and insert with ids derived from (file, key); replaces delete the
 * pairs again and insert the same ids. So a run cut short (a lost lease, a crash) is repaired by the next one.
 */

export const DATASET_COLLECTIONS: Record<DatasetId, { collection: string; nokCollection: string; touched: readonly string[] }> = {
  planning_quantity: { collection: PLANNING_QUANTITY, nokCollection: PLANNING_QUANTITY_NOK, touched: [PLANNING_QUANTITY] },
  forecast: { collection: FORECAST, nokCollection: FORECAST_NOK, touched: [FORECAST] },
  ledger: { collection: LEDGER, nokCollection: LEDGER_NOK, touched: [LEDGER, LEDGER_ACCOUNTS] },
  hr_aux: { collection: HR_AUX, nokCollection: HR_AUX_NOK, touched: [HR_AUX] },
  fpa_responsibles: { collection: FPA_RESPONSIBLES, nokCollection: FPA_RESPONSIBLES_NOK, touched: [FPA_RESPONSIBLES] },
  fiscal_items: { collection: FISCAL_ITEMS, nokCollection: FISCAL_ITEMS_NOK, touched: [FISCAL_ITEMS] },
};

/** What a file's valid rows gathered while being read, for a replace: the pairs it covers and (ledger) its accounts. */
export type ReplaceScope = {
  pairs: Map<string, { businessUnitID: BusinessUnitId; month?: Date; year?: number }>;
  accounts: Map<string, UploadedAccount>;
};

export type ApplyResult = UploadCounts & { pairs: number; accounts: number };

export const APPLY_BATCH_SIZE = 2_000;

/** Runs `step` for each piece of work; `step` is how the caller keeps the work interruptible (lease, stall). */
export type Step = <T>(work: Promise<T>) => Promise<T>;

export async function applyStaged(id: DatasetId, scope: ReplaceScope, meta: UploadMeta, step: Step, onProgress: (rows: number) => void): Promise<ApplyResult> {
  const total: ApplyResult = { inserted: 0, updated: 0, unchanged: 0, removed: 0, pairs: scope.pairs.size, accounts: 0 };
  const add = (counts: UploadCounts) => {
    total.inserted += counts.inserted;
    total.updated += counts.updated;
    total.unchanged += counts.unchanged;
    total.removed += counts.removed;
  };
  if (id === "ledger") {
    const accounts = await step(upsertLedgerAccounts([...scope.accounts.values()], meta));
    total.accounts = accounts.inserted + accounts.updated;
    total.removed = await step(deleteLedgerMonths([...scope.pairs.values()].map((p) => ({ businessUnitID: p.businessUnitID, month: p.month! })), meta));
  } else if (id === "fiscal_items") {
    total.removed = await step(deleteFiscalItemsOf([...scope.pairs.values()].map((p) => ({ businessUnitID: p.businessUnitID, year: p.year! })), meta));
  }
  let done = 0;
  const batches = stagedBatches(meta.db, meta.file, APPLY_BATCH_SIZE);
  try {
    for (;;) {
      const next = await step(batches.next());
      if (next.done) break;
      const batch = next.value;
      const docs = batch.map((b) => b.doc);
      switch (id) {
        case "planning_quantity":
          add(await step(applyPlanningUpload(docs as unknown as PlanningUploadRow[], meta)));
          break;
        case "forecast":
          add(await step(applyForecastUpload(docs as unknown as ForecastUploadRow[], meta)));
          break;
        case "hr_aux":
          add(await step(applyHrUpload(docs as unknown as HrUploadRow[], meta)));
          break;
        case "fpa_responsibles":
          add(await step(upsertResponsibles(docs as unknown as FpaResponsible[], meta)));
          break;
        case "ledger": {
          const rows = batch.map(({ key, doc }) => {
            const { _account: _ignored, ...row } = doc;
            return { _id: uploadedRowId(meta.file, key), ...row };
          });
          total.inserted += await step(insertLedgerRows(rows, meta));
          break;
        }
        case "fiscal_items":
          total.inserted += await step(insertFiscalItems(batch.map(({ key, doc }) => ({ _id: uploadedRowId(meta.file, key), ...doc })), meta));
          break;
      }
      done += batch.length;
      onProgress(done);
    }
  } finally {
    await batches.return(undefined).catch(() => undefined);
  }
  return total;
}

/** The stored files named by a batch of fiscal rows (worksheet_file, document_file). */
export async function resolveRepositoryFiles(db: Db, names: readonly string[]): Promise<Map<string, StoredFile>> {
  return repositoryFilesNamed(names, db);
}
