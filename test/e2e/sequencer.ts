import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Browser test files, longest first, so that the two workers finish together instead of one running the last long
 * file alone. Vitest orders by the durations of its last run, which a clean checkout (CI) does not have; it then
 * takes the largest files first, and the walk of every page (a short file, the longest run) came last. The seconds
 * below are one file's share of a full run on a 2-core machine (`npm run test:e2e`, 2026-11-26); a file not listed
 * runs first, as Vitest runs unknown files first. Refresh the figures when a file's time changes much.
 */
const SECONDS: Record<string, number> = {
  "walk.e2e.ts": 204,
  "access-matrix.e2e.ts": 190,
  "access.e2e.ts": 142,
  "reports.e2e.ts": 95,
  "uploads.e2e.ts": 77,
  "access-hardening.e2e.ts": 59,
  "dashboards.e2e.ts": 59,
  "master-data.e2e.ts": 59,
  "planning.e2e.ts": 44,
  "forecast.e2e.ts": 39,
  "layout.e2e.ts": 38,
  "empty-start.e2e.ts": 37,
  "deploy-faults.e2e.ts": 32,
  "hr.e2e.ts": 28,
  "grid-layout.e2e.ts": 22,
  "jobs.e2e.ts": 21,
  "a11y.e2e.ts": 18,
  "deploy-s3.e2e.ts": 16,
  "explorer.e2e.ts": 15,
  "deploy-commands.e2e.ts": 9,
  "home.e2e.ts": 9,
  "host.e2e.ts": 8,
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (file: TestSpecification) => SECONDS[path.basename(file.moduleId)] ?? 1e9;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
