import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { FORECAST_HEADER, forecastRow, grantPermission, useTempDataDir } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import { cycleLockTexts } from "~/features/forecast/cycle/server-texts";
import { assignPreparer, dumpForecast, insertScenario } from "~/features/forecast/fixtures";
import { FORECAST, FORECAST_NOK } from "~/models/forecast.server";
import { FORECAST_CYCLE } from "~/models/forecast-cycle.server";
import { importCommand } from "./cli-import";

/**
 * The operator's import of a forecast file naming a cost centre whose forecast is submitted, or whose RF's edit month
 * has ended, or (with --user) one its user does not prepare: refused, as on screen.
 */

const testDb = useTestDatabase();
useTempDataDir();
const RF = "RF2 2027";
const MARKETING = "CC1001 - Marketing";
const savedToday = process.env.PORTAL_TODAY;
let work = "";
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "jp-cycle-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

describe("portal import of a forecast file after submission", () => {
  it("refuses the file with the message every write path gives, exit code 1, and changes nothing", async () => {
    const db = await testDb.db();
    await insertScenario(db, RF, MARKETING);
    await grantPermission(db, "prep@example.com", "USER GOLD");
    await assignPreparer(db, "prep@example.com", MARKETING);
    await db.collection(FORECAST_CYCLE).insertOne({
      rf: RF,
      cost_center_concat: MARKETING,
      state: "submitted",
      changed_at: new Date(),
      changed_by: "prep@example.com",
      changed_by_name: "Prep",
    });
    const before = await dumpForecast(db);
    const file = path.join(work, "forecast.csv");
    await fs.writeFile(
      file,
      [
        FORECAST_HEADER.join(";"),
        forecastRow({ rf: RF, cost_center_concat: MARKETING, data_ref: "2027-03", forecast: "7,00" }).join(";"),
      ].join("\n"),
    );
    const lines: string[] = [];
    const { code } = await importCommand([file, "--user", "prep@example.com"], (l) => lines.push(l), {
      progressIntervalMs: 20,
    });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe(
      `NOK: ${cycleLockTexts.lockedUpload([{ costCenter: MARKETING, rf: RF, reason: "Enviado" }])}`,
    );
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("portal import --user of a forecast file after the edit month", () => {
  it("refuses a cost centre never submitted (Não enviado), for a USER GOLD preparer, changing nothing", async () => {
    process.env.PORTAL_TODAY = "2027-03-02";
    const FEB = "02/2027";
    resetConfigForTests();
    const db = await testDb.db();
    const RETAIL = "CC1002 - Vendas Varejo";
    await insertScenario(db, RF, RETAIL);
    await grantPermission(db, "prep@example.com", "USER GOLD");
    await assignPreparer(db, "prep@example.com", RETAIL);
    const cell = { rf: RF, cost_center_concat: RETAIL, account_concat: "4101001 - Salários e Ordenados" };
    const april = { ...cell, data_ref: new Date("2027-04-01T00:00:00Z") };
    expect((await db.collection(FORECAST).findOne(april))?.forecast).toBe(1014);
    const before = await dumpForecast(db);
    const file = path.join(work, "forecast-late.csv");
    await fs.writeFile(
      file,
      [
        FORECAST_HEADER.join(";"),
        forecastRow({ ...cell, cost_center: "CC1002", data_ref: "2027-04", forecast: "99.999,00" }).join(";"),
      ].join("\n"),
    );
    const lines: string[] = [];
    const { code } = await importCommand([file, "--user", "prep@example.com"], (l) => lines.push(l), {
      progressIntervalMs: 20,
    });
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe(
      `NOK: ${cycleLockTexts.lockedUpload([{ costCenter: RETAIL, rf: RF, reason: cycleLockTexts.lockReason.closed(FEB) }])}`,
    );
    expect((await db.collection(FORECAST).findOne(april))?.forecast).toBe(1014);
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("portal import --user of a forecast file naming a cost centre its user does not prepare", () => {
  it("refuses those rows with the reason and applies nothing, exit code 1; without --user (the operator) it loads", async () => {
    const db = await testDb.db();
    const [MARKETING, RETAIL] = ["CC1001 - Marketing", "CC1002 - Vendas Varejo"];
    await grantPermission(db, "only-marketing@example.com", "USER GOLD");
    await assignPreparer(db, "only-marketing@example.com", MARKETING);
    const before = await dumpForecast(db);
    const file = path.join(work, "forecast-two.csv");
    // Actuals: they load whatever an RF's state or month, so only the cost centre's rule can refuse them.
    const actual = (cost_center_concat: string, cost_center: string) =>
      forecastRow({ rf: "actual", cost_center_concat, cost_center, data_ref: "2027-01", value: "5,00", forecast: "" });
    await fs.writeFile(
      file,
      [FORECAST_HEADER, actual(MARKETING, "CC1001"), actual(RETAIL, "CC1002")].map((r) => r.join(";")).join("\n"),
    );
    const lines: string[] = [];
    const asUser = await importCommand([file, "--user", "only-marketing@example.com"], (l) => lines.push(l), {
      progressIntervalMs: 20,
    });
    expect(asUser.code).toBe(1);
    expect(lines.at(-1)).toMatch(/^NOK: 1 linha OK, 1 NOK; nada foi aplicado/);
    expect(
      (await db.collection(FORECAST_NOK).find({ cost_center_concat: RETAIL }).toArray()).map((r) => r.Error),
    ).toEqual([
      "Centro de custo CC1002 - Vendas Varejo não é seu: só quem o prepara, um revisor ou o SYSTEM ADMIN grava nele.",
    ]);
    expect(await dumpForecast(db)).toEqual(before);
    const asOperator = await importCommand([file], () => {}, { progressIntervalMs: 20 });
    expect(asOperator.code).toBe(0);
    expect(
      await db.collection(FORECAST).countDocuments({ rf: "actual", data_ref: new Date("2027-01-01T00:00:00Z") }),
    ).toBe(2);
  });
});
