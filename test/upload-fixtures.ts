import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { type Db, ObjectId } from "mongodb";
import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { getDb } from "~/db.server";
import { registerFile } from "~/models/file-jobs.server";
import { type PermissionType, USER_PERMISSIONS, type UserPermissionRecord } from "~/models/users.server";
import { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";

/** Points DATA_DIR at a fresh temporary directory for the test file. */
export function useTempDataDir() {
  const saved = process.env.DATA_DIR;
  const state = { dir: "" };
  beforeAll(async () => {
    state.dir = await fs.mkdtemp(path.join(os.tmpdir(), "jp-data-"));
    process.env.DATA_DIR = state.dir;
    resetConfigForTests();
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved;
    resetConfigForTests();
    await fs.rm(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** The uploader the helpers register files for unless told otherwise: a SYSTEM ADMIN, who may load every template. */
export const TEST_UPLOADER = "ana@example.com";

/** Gives `email` a permission record of `type` (and HR `stores`), as the user administration would. */
export async function grantPermission(
  db: Db,
  email: string,
  type: PermissionType,
  stores: string[] = [],
): Promise<void> {
  await db
    .collection<UserPermissionRecord>(USER_PERMISSIONS)
    .updateOne(
      { user: email },
      { $set: { type, stores }, $setOnInsert: { name: email.split("@")[0], createdAt: new Date() } },
      { upsert: true },
    );
}

/**
 * Stores bytes in the local store and registers them as a job, as an upload would. The default uploader is given its
 * SYSTEM ADMIN record first (the worker checks the uploader's rights: upload-rights.server.ts); tests of those rights
 * pass users of their own.
 */
export async function storeAndRegister(originalName: string, content: Buffer | string, user = TEST_UPLOADER) {
  if (user === TEST_UPLOADER) await grantPermission(await getDb(), TEST_UPLOADER, "SYSTEM ADMIN");
  const key = generateStorageKey(originalName);
  await getLocalStore().putStream(key, Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
  const id = await registerFile({ originalName, key, bucket: LOCAL_BUCKET, user });
  return { id, key };
}

export async function xlsxBuffer(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Dados");
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const PRODUCT_HEADER =
  "sku;material_description;marca;category_sku;categoria_principal_sku;sub_categoria_sku;hero;abcd;plc_local;plc_global;data_validade_sku";

/** A product-master CSV line; `bad` makes the hero column invalid. */
export function productLine(i: number, bad = false): string {
  return `SKU${i};Produto ${i};Marca ${i % 7};CAT${i % 5};Principal;Sub;${bad ? "maybe" : i % 2 ? "hero" : "non-hero"};${"ABCD"[i % 4]};ativo;global;2027-12-31`;
}

/** The forecast template's header, and one of its rows with the given cells changed (text, as a file holds them). */
export const FORECAST_HEADER = [
  "rf",
  "cost_center_concat",
  "cost_center",
  "level_descr",
  "group_level_2",
  "data_ref",
  "account_concat",
  "acc_description",
  "value",
  "forecast",
];
export function forecastRow(over: Partial<Record<string, string>> = {}): string[] {
  const base: Record<string, string> = {
    rf: "RF1 2026",
    cost_center_concat: "CC1001 - Marketing",
    cost_center: "CC1001",
    level_descr: "Comercial",
    group_level_2: "Despesas com Pessoal",
    data_ref: "2026-01",
    account_concat: "4101001 - Salários e Ordenados",
    acc_description: "",
    value: "0",
    forecast: "182.500,00",
  };
  return FORECAST_HEADER.map((h) => (h in over ? over[h]! : base[h]));
}

/**
 * One cell per template that makes its example row (import/example-row.ts: ignored by the import) an ordinary valid
 * row: a value the rules accept that is not the column's example, outside the row's key where the key allows.
 */
export const NON_EXAMPLE_CELL: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  product: { material_description: "Batom Matte Vinho" },
  channel: { description: "Loja parceira Centro" },
  spend: { marca: "Marca B" },
  planning_quantity: { valor: "1300" },
  forecast: { forecast: "182.600,00" },
  ledger: { actual: "12.400.100,00" },
  hr_aux: { vendas_servicos: "831,00" },
  fpa_responsibles: { personResponsible: "Carla Mendes Rocha" },
  fiscal_items: { value: "1.350.100,00" },
};

/** A file record of a job that ended well (status 0, progress 100), with `over` applied. */
export function endedFileRecord(over: Record<string, unknown> = {}) {
  return {
    originalName: "f.csv",
    originalFile: `${new ObjectId().toHexString()}.csv`,
    bucket: "local",
    user: "owner@x.test",
    clientName: "demo",
    statusChangeDate: new Date(),
    createdAt: new Date(),
    status: 0,
    progress: 100,
    message: "ok",
    agent: "w",
    leaseUntil: null,
    attempts: 1,
    ...over,
  };
}
