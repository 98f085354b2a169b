import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { ACCOUNTS, insertScenario } from "~/features/forecast/fixtures";
import { parseScenario, scenarioCalendar, windowMonths } from "~/features/forecast/release-points";
import { BRANCH_A, insertHrRecords } from "~/features/hr/fixtures";
import { resetPlanning } from "~/features/planning/fixtures";
import { parseFilter } from "~/features/planning/planning";
import { applyIndexes } from "~/models/all-indexes.server";
import { dataStates } from "~/models/dashboard-cache.server";
import { claimNextJob, finishJob, registerFile, reportProgress } from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import { FORECAST, saveForecastCells } from "~/models/forecast.server";
import { HR_AUX, saveComment, saveFigures } from "~/models/hr.server";
import { PLANNING_QUANTITY } from "~/models/planning.server";
import { saveBatch, saveQuantities } from "~/models/planning-queries.server";
import { monthStartDate } from "~/shared/months";

/**
 * An edit made in the portal changes the data state its dashboards are cached against, so a dashboard
 * that reads the edited collection shows the new figures on its next view ("invalidated on
 * write"), not only after the cache's maximum age. These edits change values in place: the document count,
 * the other half of the state, stays the same.
 */
const testDb = useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await testDb.db();
  await applyIndexes(db);
});

async function stateChangedBy(collection: string, write: () => Promise<unknown>) {
  const before = (await dataStates([collection], db)).get(collection);
  const outcome = await write();
  const after = (await dataStates([collection], db)).get(collection);
  return { changed: after !== before, outcome };
}

describe("edits made in the portal are announced to the dashboards' cache", () => {
  it("a planning save, row by row and in batch", async () => {
    const rows = await resetPlanning(db);
    const parsed = parseFilter(new URLSearchParams("chanel=FSS"), "plan");
    if (!parsed.ok) throw new Error("valid filter");
    const row = rows.find((r) => r.channel === "FSS")!;
    const individual = await stateChangedBy(PLANNING_QUANTITY, () =>
      saveQuantities({
        user: "gold@example.com",
        screen: "plan_edit",
        filter: parsed.filter,
        edits: [{ id: row._id!, revision: 0, valor: 5 }],
      }),
    );
    expect(individual.outcome).toMatchObject({ kind: "saved", saved: 1 });
    expect(individual.changed).toBe(true);
    const batch = await stateChangedBy(PLANNING_QUANTITY, () =>
      saveBatch({
        user: "gold@example.com",
        screen: "plan_edit",
        filter: parsed.filter,
        edit: { percent: 10, op: "increase" },
        loadedAt: new Date(),
      }),
    );
    expect(batch.outcome).toMatchObject({ kind: "saved" });
    expect(batch.changed).toBe(true);
  });

  it("a forecast review save", async () => {
    const rf = "RF2 2027";
    const costCenter = "CC1001 - Marketing";
    await insertScenario(db, rf, costCenter);
    const calendar = scenarioCalendar(parseScenario(rf)!);
    const month = windowMonths(calendar).find((m) => m >= calendar.firstForecastMonth)!;
    const stored = await db.collection(FORECAST).findOne({
      rf,
      cost_center_concat: costCenter,
      account_concat: ACCOUNTS[0].account,
      data_ref: monthStartDate(month),
    });
    // The model takes a forecast change only in its RF's edit month (February 2027 for RF2 2027).
    const savedToday = process.env.PORTAL_TODAY;
    process.env.PORTAL_TODAY = "2027-02-15";
    resetConfigForTests();
    const save = await stateChangedBy(FORECAST, () =>
      saveForecastCells(
        rf,
        costCenter,
        [
          {
            account: ACCOUNTS[0].account,
            month: monthStartDate(month),
            old: stored!.forecast,
            value: stored!.forecast + 1,
          },
        ],
        { email: "fp@example.com", name: "FP" },
        new Date(),
      ),
    ).finally(() => {
      if (savedToday === undefined) delete process.env.PORTAL_TODAY;
      else process.env.PORTAL_TODAY = savedToday;
      resetConfigForTests();
    });
    expect(save.outcome).toMatchObject({ kind: "saved", count: 1 });
    expect(save.changed).toBe(true);
  });

  it("an HR figure and an HR comment", async () => {
    const records = await insertHrRecords(db);
    const record = records.find((r) => r.filial_nome === BRANCH_A)!;
    const figures = await stateChangedBy(HR_AUX, () =>
      saveFigures(BRANCH_A, [{ id: String(record._id), field: "vendas_adicionais", value: 4321 }], "hr@example.com"),
    );
    expect(figures.outcome).toMatchObject({ kind: "saved", changed: 1 });
    expect(figures.changed).toBe(true);
    const comment = await stateChangedBy(HR_AUX, () =>
      saveComment(BRANCH_A, String(record._id), "Novo comentário", "hr@example.com"),
    );
    expect(comment.outcome).toEqual({ kind: "saved" });
    expect(comment.changed).toBe(true);
  });

  it("a job's life: registered, claimed, running (its first progress only, not every heartbeat), finished", async () => {
    const registered = await stateChangedBy(FILES, () =>
      registerFile({ originalName: "a.csv", key: "k/a.csv", bucket: "local", user: "ana@example.com" }),
    );
    expect(registered.changed).toBe(true);
    const claimed = await stateChangedBy(FILES, () => claimNextJob({ agent: "A" }));
    expect(claimed.outcome).not.toBeNull();
    expect(claimed.changed).toBe(true);
    const claim = claimed.outcome as NonNullable<Awaited<ReturnType<typeof claimNextJob>>>;
    const first = await stateChangedBy(FILES, () => reportProgress(claim, { progress: 10, message: "10%" }));
    expect(first).toEqual({ changed: true, outcome: true });
    const heartbeat = await stateChangedBy(FILES, () => reportProgress(claim, { progress: 20, message: "20%" }));
    expect(heartbeat).toEqual({ changed: false, outcome: true });
    const finished = await stateChangedBy(FILES, () => finishJob(claim, { status: 0, message: "ok" }));
    expect(finished).toEqual({ changed: true, outcome: true });
  });

  it("an edit that changes nothing leaves the figures cached", async () => {
    const records = await db.collection(HR_AUX).find({ filial_nome: BRANCH_A }).limit(1).toArray();
    const same = await stateChangedBy(HR_AUX, () =>
      saveComment(BRANCH_A, String(records[0]._id), String(records[0].comentario ?? ""), "hr@example.com"),
    );
    expect(same.outcome).toEqual({ kind: "noChanges" });
    expect(same.changed).toBe(false);
  });
});
