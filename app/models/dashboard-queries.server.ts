import { getDb } from "~/db.server";
import { DASHBOARDS, type DashboardRecord } from "~/models/dashboards.server";

/** Read queries over the `dashboards` collection (spec 000 §3, §7 "the dashboards list for the tenant"). */

export type Dashboard = Omit<DashboardRecord, "_id">;

/** The tenant's dashboards, sorted by painelId (index cliente_painelId). */
export async function listDashboards(cliente: string): Promise<Dashboard[]> {
  const db = await getDb();
  return db
    .collection<DashboardRecord>(DASHBOARDS)
    .find({ cliente }, { projection: { _id: 0, charts: 0 } })
    .sort({ painelId: 1 })
    .toArray();
}

/** A painelId as it arrives in a URL segment: digits only, or nothing. */
export function parsePainelId(raw: string | undefined): number | undefined {
  if (!raw || !/^\d{1,9}$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * One dashboard of the tenant by its painelId (the `{id}` of /ij/painel/{id}), with its charts.
 * An id that is not a number, or that no record has, is a 404 Response.
 */
export async function getDashboard(cliente: string, painelId: string | number): Promise<Dashboard> {
  const id = typeof painelId === "number" ? painelId : parsePainelId(painelId);
  if (id === undefined || !Number.isSafeInteger(id)) throw new Response(null, { status: 404 });
  const db = await getDb();
  // Records written by hand sometimes hold the id as a string; both forms are the same dashboard.
  const record = await db
    .collection<DashboardRecord>(DASHBOARDS)
    .findOne({ cliente, painelId: { $in: [id, String(id) as unknown as number] } }, { projection: { _id: 0 } });
  if (!record) throw new Response(null, { status: 404 });
  return record;
}
