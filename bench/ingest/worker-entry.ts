/**
 * What the ingest benchmark calls, in one module: run.ts loads it through tsx, or bundled with the
 * host's own esbuild options (BENCH_INGEST_BUNDLE=1), which is the code production runs.
 */
export { closeDb, getDb } from "../../app/db.server";
export { INGEST_BATCH_SIZE } from "../../app/features/uploads-and-jobs/import/ingest.server";
export { productTemplate } from "../../app/features/uploads-and-jobs/import/master-data-templates";
export { readCsvBatches } from "../../app/features/uploads-and-jobs/import/readers.server";
export { checkCell } from "../../app/features/uploads-and-jobs/import/rules";
export { checkRow } from "../../app/features/uploads-and-jobs/import/template";
export { detectTemplate } from "../../app/features/uploads-and-jobs/import/templates";
export { processNextJob } from "../../app/features/uploads-and-jobs/import/worker-loop.server";
export { applyIndexes } from "../../app/models/all-indexes.server";
export { registerFile } from "../../app/models/file-jobs.server";
export { indexes as masterDataIndexes } from "../../app/models/master-data.server";
export { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "../../app/services/storage.server";
export { cellText } from "../../app/shared/excel/values";
