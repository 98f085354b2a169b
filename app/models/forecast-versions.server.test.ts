import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { FORECAST_VERSIONS, listVersions, type VersionHeader } from "./forecast-versions.server";

const testDb = useTestDatabase();

const header = (rf: string, k: number, state: VersionHeader["state"] = "ready"): VersionHeader => ({
  _id: new ObjectId(),
  name: `${rf} v${k}`,
  rf,
  kind: "manual",
  created_at: new Date(Date.UTC(2027, 0, 1 + k)),
  created_by: "a@x.test",
  created_by_name: "A",
  total: k,
  cost_centers: 1,
  state,
});

describe("listVersions", () => {
  it("pages the ready versions newest first, with the total on every page, short pages and past the end too", async () => {
    await (await testDb.db())
      .collection<VersionHeader>(FORECAST_VERSIONS)
      .insertMany([
        ...[1, 2, 3, 4, 5].map((k) => header("RF1 2027", k)),
        header("RF1 2027", 6, "saving"),
        header("RF2 2027", 7),
      ]);
    const page = async (rfs: string[] | null, skip: number, limit: number) => {
      const { rows, total } = await listVersions(rfs, skip, limit, null);
      return { names: rows.map((r) => r.name), total };
    };
    expect(await page(["RF1 2027"], 0, 2)).toEqual({ names: ["RF1 2027 v5", "RF1 2027 v4"], total: 5 });
    expect(await page(["RF1 2027"], 4, 2)).toEqual({ names: ["RF1 2027 v1"], total: 5 });
    expect(await page(["RF1 2027"], 0, 50)).toEqual({ names: [5, 4, 3, 2, 1].map((k) => `RF1 2027 v${k}`), total: 5 });
    expect(await page(["RF1 2027"], 10, 2)).toEqual({ names: [], total: 5 });
    expect(await page(null, 0, 3)).toEqual({ names: ["RF2 2027 v7", "RF1 2027 v5", "RF1 2027 v4"], total: 6 });
    expect(await page(["RF9 2027"], 0, 2)).toEqual({ names: [], total: 0 });
  });
});
