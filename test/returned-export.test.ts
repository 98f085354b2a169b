import type { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { type Db, ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetPlanning } from "~/features/planning/fixtures";
import { parseFilter } from "~/features/planning/planning";
import { excelTexts } from "~/messages";
import { EXCEL_IMPORTS } from "~/models/excel-imports.server";
import { claimNextJob, findFileById, type JobClaim } from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import { PLANNING_HISTORY, PLANNING_QUANTITY } from "~/models/planning.server";
import { saveQuantities } from "~/models/planning-queries.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import type { IngestClock } from "~/platform/import/ingest.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { roundTripByExportName } from "~/round-trips.server";
import { openReadStream } from "~/services/storage.server";
import { storeAndRegister, useTempDataDir } from "./upload-fixtures";

/**
 * An edited "Exportar Excel" file sent through /captura/manual instead of its screen: the worker recognises the
 * export by its hidden columns and applies it with the screen's own rules, for the uploader, who must be allowed to
 * save on that screen; the job's message is the screen's outcome and where its list is.
 */

const testDb = useTestDatabase();
useTempDataDir();
let db: Db;

const FILTER = "dateStart=2026-01-01&dateEnd=2026-03-31&skuMode=attributes&chanel=WHOLESALES&chanel=FSS";
const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 });
const quantities = async () =>
  db
    .collection(PLANNING_QUANTITY)
    .find({}, { projection: { valor: 1 } })
    .sort({ _id: 1 })
    .toArray();

async function exportedWorkbook(): Promise<ExcelJS.Workbook> {
  // The planning screen's export of FILTER, found as the worker finds its way back: in app/round-trips.server.ts.
  const exported = await roundTripByExportName("planning")!.exportXlsx(new URLSearchParams(FILTER));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await exported.arrayBuffer()) as unknown as ArrayBuffer);
  return workbook;
}

function column(sheet: ExcelJS.Worksheet, header: string): number {
  let found = -1;
  sheet.getRow(1).eachCell((cell, col) => {
    if (cell.value === header) found = col;
  });
  if (found < 0) throw new Error(`no column ${header}`);
  return found;
}

beforeEach(async () => {
  db = await testDb.db();
  await resetPlanning(db);
  await db.collection(USER_PERMISSIONS).deleteMany({});
  await db.collection(USER_PERMISSIONS).insertMany([
    { user: "gold@example.com", name: "Gold", type: "USER GOLD", stores: [], createdAt: new Date() },
    { user: "bronze@example.com", name: "Bronze", type: "USER BRONZE", stores: [], createdAt: new Date() },
  ]);
});

describe("an edited export uploaded through /captura/manual", () => {
  it("applies the changed quantities as the screen would, lists the row changed meanwhile as a conflict, and says where the list is", async () => {
    const workbook = await exportedWorkbook();
    const sheet = workbook.worksheets[0];
    const quantity = column(sheet, "Quantity");
    const idColumn = column(sheet, "_id");
    const ids = [2, 3, 4].map((n) => String(sheet.getRow(n).getCell(idColumn).value));
    [2, 3, 4].forEach((n, i) => {
      sheet.getRow(n).getCell(quantity).value = 6_000 + i;
    });
    const parsed = parseFilter(new URLSearchParams(FILTER), "plan");
    if (!parsed.ok) throw new Error("filter");
    await saveQuantities({
      user: "silver@example.com",
      screen: "plan_edit",
      filter: parsed.filter,
      edits: [{ id: new ObjectId(ids[2]), revision: 0, valor: 555 }],
    });
    const before = await quantities();

    const { id } = await storeAndRegister(
      "planejamento_editado.xlsx",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "gold@example.com",
    );
    expect(await run()).toMatchObject({ kind: "done", status: 0 });
    const job = await findFileById(id);
    expect(job?.message).toContain("2 alterados, 1 conflito, 0 recusados");
    expect(job?.message).toMatch(/\/ij\/plan_edit\?.*excel=[0-9a-f]{24}/);

    const after = await quantities();
    const changed = after.filter((row, i) => row.valor !== before[i].valor).map((row) => String(row._id));
    expect(changed.sort()).toEqual([ids[0], ids[1]].sort());
    const history = await db.collection(PLANNING_HISTORY).find({ via: "excel" }).toArray();
    expect(history.map((h) => String(h.rowId)).sort()).toEqual([ids[0], ids[1]].sort());
  });

  it("refuses the file of a screen the uploader may not save on, and changes nothing", async () => {
    const workbook = await exportedWorkbook();
    const sheet = workbook.worksheets[0];
    sheet.getRow(2).getCell(column(sheet, "Quantity")).value = 9_999;
    const before = await quantities();
    const { id } = await storeAndRegister(
      "planejamento_bronze.xlsx",
      Buffer.from(await workbook.xlsx.writeBuffer()),
      "bronze@example.com",
    );
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect((await findFileById(id))?.message).toBe(excelTexts.excelUploadNotAllowed);
    expect(await quantities()).toEqual(before);
  });
});

/** Time that moves only when the test says so; moving it fires the timers due and awaits what they start. */
class StepClock implements IngestClock {
  private timers: Array<{ at: number; fire: () => unknown }> = [];
  constructor(private time: number) {}
  now(): Date {
    return new Date(this.time);
  }
  setTimer(ms: number, fire: () => unknown): () => void {
    const timer = { at: this.time + ms, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      await due.fire();
    }
    this.time = end;
  }
}

describe("an edited export whose apply outlasts the lease", () => {
  const LEASE_MS = 10_000;

  /** The export, edited and queued by a user who may save it; its worker's apply waits for `release` once begun. */
  async function slowApply() {
    await db.collection(EXCEL_IMPORTS).deleteMany({});
    await db.collection(PLANNING_HISTORY).deleteMany({});
    const workbook = await exportedWorkbook();
    const sheet = workbook.worksheets[0];
    const quantity = column(sheet, "Quantity");
    [2, 3].forEach((n, i) => {
      sheet.getRow(n).getCell(quantity).value = 7_000 + i;
    });
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const { id } = await storeAndRegister("planejamento_lento.xlsx", bytes, "gold@example.com");
    const clock = new StepClock(Date.now());
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let began: () => void = () => undefined;
    const applying = new Promise<void>((resolve) => (began = resolve));
    let opened = 0;
    // The first open is the read that recognises the export; the next one is its apply's.
    const openSource = async (claim: JobClaim): Promise<{ stream: Readable; size: number }> => {
      if (++opened > 1) {
        began();
        await released;
      }
      return openReadStream(claim.bucket, claim.originalFile);
    };
    const running = processNextJob({ name: "slow", leaseMs: LEASE_MS, progressIntervalMs: 1_000, clock, openSource });
    await applying;
    return { id, clock, release, running };
  }

  it("keeps its claim while it applies: another worker cannot take the job, and the file is applied once", async () => {
    const { id, clock, release, running } = await slowApply();
    await clock.advance(3 * LEASE_MS);
    expect(await claimNextJob({ agent: "other", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
    release();
    expect(await running).toMatchObject({ kind: "done", status: 0 });
    expect(await db.collection(EXCEL_IMPORTS).countDocuments({})).toBe(1);
    expect(await db.collection(PLANNING_HISTORY).countDocuments({ via: "excel" })).toBe(2);
    expect(await findFileById(id)).toMatchObject({ attempts: 1, progress: 100, agent: "slow" });
  });

  it("a worker that lost its claim during the apply keeps no report and records no result", async () => {
    const { id, clock, release, running } = await slowApply();
    // Its claim is lost (the process was paused past its lease): another worker holds the job now.
    await db.collection(FILES).updateOne({ _id: id }, { $set: { leaseUntil: clock.now() } });
    expect(await claimNextJob({ agent: "other", leaseMs: LEASE_MS, now: clock.now() })).toMatchObject({ attempts: 2 });
    await clock.advance(1_000);
    release();
    expect(await running).toEqual({ kind: "lease-lost" });
    expect(await db.collection(EXCEL_IMPORTS).countDocuments({})).toBe(0);
    expect((await findFileById(id))?.resultPath).toBeUndefined();
  });
});
