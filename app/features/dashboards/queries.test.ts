import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { getDashboard, listDashboards } from "~/models/dashboard-queries.server";
import { DASHBOARDS } from "~/models/dashboards.server";

const testDb = useTestDatabase();

describe("dashboard queries", () => {
  it("lists the tenant's dashboards sorted by painelId, without other tenants' and without charts", async () => {
    const db = await testDb.db();
    await db.collection(DASHBOARDS).insertMany([
      { dashboardId: "c", panelLabel: "Terceiro", panelType: 2, painelId: 3, cliente: "acme", charts: [] },
      { dashboardId: "a", panelLabel: "Primeiro", panelType: 1, painelId: 1, cliente: "acme" },
      { dashboardId: "x", panelLabel: "Outro", panelType: 1, painelId: 0, cliente: "other" },
      { dashboardId: "b", panelLabel: "Segundo", panelType: 1, painelId: 2, cliente: "acme" },
    ]);
    const list = await listDashboards("acme");
    expect(list.map((d) => d.painelId)).toEqual([1, 2, 3]);
    expect(list[2]).toEqual({ dashboardId: "c", panelLabel: "Terceiro", panelType: 2, painelId: 3, cliente: "acme" });
  });

  it("finds one dashboard by the id of its URL and answers 404 otherwise", async () => {
    expect((await getDashboard("acme", "2")).dashboardId).toBe("b");
    expect((await getDashboard("acme", 3)).charts).toEqual([]);
    for (const id of ["99", "abc", "1e3", "", "0"]) {
      await expect(getDashboard("acme", id)).rejects.toSatisfy(
        (e: unknown) => e instanceof Response && e.status === 404,
      );
    }
  });
});
