import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { EJSON } from "bson";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import {
  ADMIN,
  EDIT_DAY,
  expectSumsFresh,
  makeRandom,
  RF,
  seedForecast,
  setToday,
  signIn,
  templateCsv,
} from "~/features/forecast/consolidated/write-paths.fixture";
import { saveNamedVersion } from "~/features/forecast/versions/versions.server";
import { FORECAST_VERSION_ROWS, FORECAST_VERSIONS } from "~/models/forecast-versions.server";
import { importCommand } from "./cli-import";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The operator's `portal import` of a forecast file, the write path app/ cannot reach: after random edits the
 * consolidated view's sums equal a fresh aggregate of the records at every level, and a saved version is unchanged.
 */

const testDb = useTestDatabase();
useTempDataDir();
const savedToday = process.env.PORTAL_TODAY;
let work = "";

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "jp-consolidated-"));
  setToday(EDIT_DAY);
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

describe("portal import of forecast files", () => {
  it("keeps the consolidated sums equal to a fresh aggregate and leaves a version as it was", async () => {
    const db = await testDb.db();
    await seedForecast(db);
    signIn(ADMIN);
    const saved = await saveNamedVersion(new URLSearchParams({ rf: RF, nome: "Antes da carga" }), ADMIN);
    expect(saved.ok).toBe(true);
    const dump = async () =>
      (
        await Promise.all(
          [FORECAST_VERSIONS, FORECAST_VERSION_ROWS].map((name) =>
            db.collection(name).find({}).sort({ _id: 1 }).toArray(),
          ),
        )
      )
        .flat()
        .map((d) => EJSON.stringify(d, { relaxed: false }));
    const before = await dump();
    await expectSumsFresh(db, "before");
    const random = makeRandom(2027);
    for (let round = 1; round <= 3; round++) {
      const file = path.join(work, `forecast-${round}.csv`);
      await fs.writeFile(file, templateCsv(random));
      const lines: string[] = [];
      const { code } = await importCommand([file, "--user", ADMIN.email], (l) => lines.push(l), {
        progressIntervalMs: 20,
      });
      expect(lines.at(-1)).toMatch(/^OK: /);
      expect(code).toBe(0);
      await expectSumsFresh(db, `portal import, round ${round}`);
    }
    expect(await dump()).toEqual(before);
  });
});
