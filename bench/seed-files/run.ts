/**
 * `npx tsx bench/seed-files/run.ts [scale]` — the seed's stored files: generating the repository
 * files' and reports' records at `scale` (default 10) and writing their bytes through the local store, against
 * a baseline in the same run that writes the same number of objects of the same sizes with fs.writeFile into
 * the same kind of folder tree (no rendering, no store). Prints both times and the ratio.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { documentSink } from "~/features/reports-and-financial/documents-store.server";
import { monthStart, type SeedContext } from "~/seed/context";
import { generateFiles } from "~/seed/files";
import { Random } from "~/seed/random";
import { generateReports } from "~/seed/reports";
import { SeedObjects } from "~/seed/stored-objects";
import { LOCAL_BUCKET } from "~/services/storage.server";

async function main() {
  const scale = Number(process.argv[2] ?? 10);
  const ctx: SeedContext = {
    random: new Random(1, "bench"),
    scale,
    reference: monthStart(new Date("2026-03-01T00:00:00Z")),
    tenantId: "bench",
    bucket: LOCAL_BUCKET,
  };
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "bench-seed-files-"));
  try {
    const started = performance.now();
    const objects = new SeedObjects();
    const files = generateFiles(ctx, ["a@example.com"], objects);
    const reports = generateReports(ctx, ["a@example.com"], objects);
    const written = await objects.writeAll(
      await documentSink({ bucket: LOCAL_BUCKET, localRoot: path.join(root, "store") }),
    );
    const seedMs = performance.now() - started;

    // Baseline: the same keys and sizes, written directly.
    const sizes: [string, number][] = [];
    for (const key of new Set([...files.map((x) => x.originalFile), ...reports.map((x) => x.originalFile)])) {
      sizes.push([key, (await fs.stat(path.join(root, "store", key))).size]);
    }
    const base = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = w; i < sizes.length; i += 8) {
          const target = path.join(root, "baseline", sizes[i][0]);
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.writeFile(target, Buffer.alloc(sizes[i][1], 1));
        }
      }),
    );
    const baseMs = performance.now() - base;
    const total = sizes.reduce((s, [, n]) => s + n, 0);
    console.log(`scale ${scale}: ${written} objects, ${(total / 1024 / 1024).toFixed(1)} MB`);
    console.log(`baseline (fs.writeFile, same sizes): ${(baseMs / 1000).toFixed(1)} s`);
    console.log(
      `seed (records + rendering + store): ${(seedMs / 1000).toFixed(1)} s  (${(seedMs / baseMs).toFixed(2)}× the baseline)`,
    );
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

void main();
