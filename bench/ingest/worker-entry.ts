/**
 * What the ingest benchmark calls, in one module: run.ts loads it through tsx, or bundled with the
 * host's own esbuild options (BENCH_INGEST_BUNDLE=1), which is the code production runs.
 */
import { registerPortalDatasets } from "../../app/datasets.server";

// The worker's datasets, as a worker process registers them when it starts.
registerPortalDatasets();

export { closeDb, getDb } from "../../app/db.server";
export { productTemplate } from "../../app/features/repository-and-master-data/upload-templates";
export { applyIndexes } from "../../app/models/all-indexes.server";
export { registerFile } from "../../app/models/file-jobs.server";
export { indexes as masterDataIndexes } from "../../app/models/master-data.server";
export { INGEST_BATCH_SIZE } from "../../app/platform/import/ingest.server";
export { readCsvBatches } from "../../app/platform/import/readers.server";
export { detectTemplate } from "../../app/platform/import/registry";
export { checkCell } from "../../app/platform/import/rules";
export { checkRow } from "../../app/platform/import/template";
export { processNextJob } from "../../app/platform/import/worker-loop.server";
export { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "../../app/services/storage.server";
export { cellText } from "../../app/shared/excel/values";
