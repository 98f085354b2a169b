import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cycleTexts } from "~/features/forecast/cycle/texts";
import { dumpForecast, insertScenario } from "~/features/forecast/fixtures";
import {
  FORECAST_HEADER,
  forecastRow,
  grantPermission,
  useTempDataDir,
} from "~/features/uploads-and-jobs/test-helpers";
import { FORECAST_CYCLE } from "~/models/forecast-cycle.server";
import { useTestDatabase } from "../test/db";
import { importCommand } from "./cli-import";

/** The operator's import of a forecast file names a cost centre whose forecast is submitted: refused, as on screen. */

const testDb = useTestDatabase();
useTempDataDir();
const RF = "RF2 2027";
const MARKETING = "CC1001 - Marketing";
let work = "";
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "jp-cycle-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe("portal import of a forecast file after submission", () => {
  it("refuses the file with the message every write path gives, exit code 1, and changes nothing", async () => {
    const db = await testDb.db();
    await insertScenario(db, RF, MARKETING);
    await grantPermission(db, "prep@example.com", "USER GOLD");
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
    expect(lines.at(-1)).toBe(`NOK: ${cycleTexts.frozenUpload([`${MARKETING} (${RF})`])}`);
    expect(await dumpForecast(db)).toEqual(before);
  });
});
