import { Readable } from "node:stream";
import JSZip from "jszip";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { usePortalToday } from "#test/clock";
import { useTestDatabase } from "#test/db";
import { grantPermission, NON_EXAMPLE_CELL, useTempDataDir } from "#test/upload-fixtures";
import { repositoryFiles, uploadAndProcess } from "#test/uploads";
import { PERMISSION_TYPES, type PermissionType } from "~/access";
import { applyIndexes } from "~/models/all-indexes.server";
import { EXPLORER_DOCUMENTS } from "~/models/explorer.server";
import { FILE_STATUS_UNREADABLE, findFileById, registerFile } from "~/models/file-jobs.server";
import type { FileTarget } from "~/models/files.fields";
import { assignPreparers } from "~/models/forecast-cycle.server";
import { HR_AUX, HR_AUX_NOK } from "~/models/hr.server";
import { REPORTS } from "~/models/reports.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";
import { TEMPLATE_CATALOG } from "./catalog.server";
import { DATASET_COLLECTIONS } from "./datasets/apply.server";
import { FILE_STATUS_REJECTED } from "./datasets/ingest.server";
import { nokRowsDownload } from "./nok-rows.server";
import { TEMPLATES } from "./registry";

/**
 * An upload writes only what its uploader may write on the screen the data belongs to. Every template,
 * report packages and explorer documents, tried by every permission type of app/access.ts (and an account without a
 * record), with the rights the worker finds when it recognises the file; HR rows held to the uploader's branches.
 */

const testDb = useTestDatabase();
// The files load RF1 2026 forecast rows, which change only in that RF's edit month (November 2025).
usePortalToday("2025-11-15");
useTempDataDir();

const run = () => processNextJob({ name: "rights-worker", leaseMs: 60_000, progressIntervalMs: 20 });

/** Who may load what, written from docs/access.md "Upload targets" (not read from the table it checks). */
const ADMIN_AND_GOLD: readonly PermissionType[] = ["SYSTEM ADMIN", "USER GOLD"];
const UPLOADERS: readonly PermissionType[] = ["SYSTEM ADMIN", "USER BRONZE", "USER SILVER", "USER GOLD"];
const MAY_LOAD: Record<string, readonly PermissionType[]> = {
  product: UPLOADERS,
  channel: UPLOADERS,
  spend: UPLOADERS,
  planning_quantity: ADMIN_AND_GOLD,
  forecast: ADMIN_AND_GOLD,
  ledger: ADMIN_AND_GOLD,
  hr_aux: ADMIN_AND_GOLD, // HR_EDITOR_TYPES by default
  fpa_responsibles: ADMIN_AND_GOLD,
  fiscal_items: ADMIN_AND_GOLD,
  reports: ADMIN_AND_GOLD,
  explorer: ["SYSTEM ADMIN", "USER SILVER", "USER GOLD"],
};

const userOf = (type: PermissionType | "none") => `${type.toLowerCase().replace(/\s+/g, "-")}@example.com`;
const EVERY_ACCOUNT: Array<PermissionType | "none"> = [...PERMISSION_TYPES, "none"];

async function upload(originalName: string, content: Buffer | string, user: string, target?: FileTarget) {
  const worker = { name: "rights-worker", progressIntervalMs: 20 };
  return (await uploadAndProcess(originalName, content, { user, grant: null, target, worker })).file!;
}

/** The business collection each template writes. */
function collectionOf(id: string): string {
  const { load } = TEMPLATES.find((t) => t.id === id)!;
  if (load.mode === "rows-with-nok") return load.okCollection;
  return DATASET_COLLECTIONS[id as keyof typeof DATASET_COLLECTIONS].collection;
}

/**
 * The template as /captura/manual hands it out, as a Brazilian CSV: its header and its example row with one cell
 * changed (NON_EXAMPLE_CELL), so the row loads: a row equal to the example is ignored (import/example-row.ts).
 */
function exampleCsv(id: string, over: Record<string, string> = {}): string {
  const info = TEMPLATE_CATALOG.find((t) => t.id === id)!;
  const cells = { ...NON_EXAMPLE_CELL[id], ...over };
  const cell = (name: string, example: string | number) => (name in cells ? cells[name] : String(example));
  return [info.columns.map((c) => c.name).join(";"), info.columns.map((c) => cell(c.name, c.example)).join(";")].join(
    "\n",
  );
}

async function snapshot(collection: string) {
  return (await testDb.db())
    .collection(collection)
    .find({}, { sort: { _id: 1 } })
    .toArray();
}

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  for (const type of PERMISSION_TYPES) await grantPermission(db, userOf(type), type);
  // Every account prepares the forecast example's cost centre: a USER GOLD writes only the cost centres they prepare
  // (app/models/forecast-readers.server.ts; datasets/datasets.test.ts tries another's), so only the right refuses.
  const forecastExample = TEMPLATE_CATALOG.find((t) => t.id === "forecast")!.columns.find(
    (c) => c.name === "cost_center_concat",
  )!.example;
  await assignPreparers(
    EVERY_ACCOUNT.map((account) => ({ cost_center_concat: String(forecastExample), user: userOf(account) })),
    "test",
    new Date(),
  );
  // The fiscal example names repository files: they are there, so the only reason to refuse is the right.
  await repositoryFiles(["icms_2236.xlsx", "icms_2236.pdf"]);
});

describe("every template, loaded by every permission type", () => {
  for (const info of TEMPLATE_CATALOG) {
    it(`${info.id}: ${MAY_LOAD[info.id].join(", ")} load it; every other account is refused whole and nothing changes`, async () => {
      const collection = collectionOf(info.id);
      for (const account of EVERY_ACCOUNT) {
        const allowed = account !== "none" && MAY_LOAD[info.id].includes(account);
        const before = await snapshot(collection);
        const job = await upload(`${info.id}.csv`, exampleCsv(info.id), userOf(account));
        if (allowed) {
          expect(job.status, `${account} may load ${info.id}: ${job.message}`).toBe(0);
        } else {
          expect({ account, status: job.status, message: job.message }).toEqual({
            account,
            status: FILE_STATUS_UNREADABLE,
            message: `Você não tem permissão para carregar ${info.id === "product" || info.id === "channel" || info.id === "spend" ? TEMPLATES.find((t) => t.id === info.id)!.label : info.label}`,
          });
          expect(await snapshot(collection), `${account} changed ${collection}`).toEqual(before);
        }
      }
    });
  }
});

describe("report packages and explorer documents, by every permission type", () => {
  async function packageZip(name: string): Promise<Buffer> {
    const zip = new JSZip();
    zip.file("relatorios.csv", ["name;origin;dateRef;file", `${name};manual;2025-03;r.pdf`].join("\n"));
    zip.file("r.pdf", "%PDF-1.4 relatorio");
    return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
  }

  it("report packages: the reports area's writers publish them; every other account is refused and nothing is published", async () => {
    for (const account of EVERY_ACCOUNT) {
      const allowed = account !== "none" && MAY_LOAD.reports.includes(account);
      const before = await snapshot(REPORTS);
      const job = await upload("pacote.zip", await packageZip(`Pacote ${account}`), userOf(account), "reports");
      if (allowed) expect(job.status, `${account}: ${job.message}`).toBe(0);
      else {
        expect({ account, status: job.status, message: job.message }).toEqual({
          account,
          status: FILE_STATUS_UNREADABLE,
          message: "Você não tem permissão para carregar pacotes de relatórios",
        });
        expect(await snapshot(REPORTS)).toEqual(before);
      }
    }
  });

  it("explorer documents: the explorer's readers who upload index them; every other account is refused and nothing is indexed", async () => {
    for (const account of EVERY_ACCOUNT) {
      const allowed = account !== "none" && MAY_LOAD.explorer.includes(account);
      const before = await snapshot(EXPLORER_DOCUMENTS);
      const job = await upload(`ata-${account}.txt`, "Ata da reunião de orçamento", userOf(account), "explorer");
      if (allowed) expect(job.status, `${account}: ${job.message}`).toBe(0);
      else {
        expect({ account, status: job.status, message: job.message }).toEqual({
          account,
          status: FILE_STATUS_UNREADABLE,
          message: "Você não tem permissão para carregar documentos do Explorer",
        });
        expect(await snapshot(EXPLORER_DOCUMENTS)).toEqual(before);
      }
    }
  });
});

describe("the rights as they stand when the worker recognises the file", () => {
  it("a file registered by a finance planner who is then lowered to USER BRONZE is refused, and changes nothing", async () => {
    const db = await testDb.db();
    await grantPermission(db, "demoted@example.com", "USER GOLD");
    const key = generateStorageKey("plano.csv");
    await getLocalStore().putStream(
      key,
      Readable.from([Buffer.from(exampleCsv("planning_quantity", { valor: "777" }))]),
      { maxBytes: 1e9 },
    );
    const id = await registerFile({
      originalName: "plano.csv",
      key,
      bucket: LOCAL_BUCKET,
      user: "demoted@example.com",
    });
    await db.collection(USER_PERMISSIONS).updateOne({ user: "demoted@example.com" }, { $set: { type: "USER BRONZE" } });
    const before = await snapshot(collectionOf("planning_quantity"));
    await run();
    expect(await findFileById(id)).toMatchObject({
      status: FILE_STATUS_UNREADABLE,
      message: "Você não tem permissão para carregar Planejamento – quantidades",
    });
    expect(await snapshot(collectionOf("planning_quantity"))).toEqual(before);
  });
});

describe("HR rows and the uploader's branch scope", () => {
  const STORE_EDITOR = "loja-centro@example.com";

  beforeEach(async () => {
    const db = await testDb.db();
    await Promise.all([db.collection(HR_AUX).deleteMany({}), db.collection(HR_AUX_NOK).deleteMany({})]);
    // A GOLD account whose permission record limits it to one branch (as /user/permission keeps it).
    await grantPermission(db, STORE_EDITOR, "USER GOLD", ["Loja Centro"]);
  });

  it("a row of another branch is refused with its reason, which refuses the whole file: nothing changes", async () => {
    const rows =
      exampleCsv("hr_aux") +
      "\n" +
      exampleCsv("hr_aux", { filial_nome: "Loja Norte", matricula: "200" }).split("\n")[1];
    const job = await upload("rh.csv", rows, STORE_EDITOR);
    expect(job).toMatchObject({
      status: FILE_STATUS_REJECTED,
      message: expect.stringMatching(/^1 linha OK, 1 NOK; nada foi aplicado/),
    });
    const nok = await (await testDb.db()).collection(HR_AUX_NOK).find({ sourceFileId: job._id }).toArray();
    expect(nok.map((r) => r.Error)).toEqual([
      'Coluna filial_nome: valor "Loja Norte" inválido; filial fora das lojas liberadas para você (/ij/rh)',
    ]);
    expect(await (await testDb.db()).collection(HR_AUX).countDocuments()).toBe(0);
  });

  it("rows of its own branch load", async () => {
    const job = await upload("rh-centro.csv", exampleCsv("hr_aux"), STORE_EDITOR);
    expect(job).toMatchObject({ status: 0 });
    expect(await (await testDb.db()).collection(HR_AUX).countDocuments({ filial_nome: "Loja Centro" })).toBe(1);
  });

  it("the refused rows of an HR upload leave as /ij/rh shows them: the viewer's branches only, every CPF masked", async () => {
    const bad = (filial: string, matricula: string) =>
      exampleCsv("hr_aux", { filial_nome: filial, matricula, dias_media: "muitos", cpf: "529.982.247-25" }).split(
        "\n",
      )[1];
    const header = exampleCsv("hr_aux").split("\n")[0];
    const job = await upload(
      "rh-nok.csv",
      [
        header,
        bad("Loja Centro", "1"),
        bad("Loja Norte", "2"),
        exampleCsv("hr_aux", { cpf: "123.456.789-0" }).split("\n")[1],
      ].join("\n"),
      userOf("SYSTEM ADMIN"),
    );
    expect(job.status).toBe(FILE_STATUS_REJECTED);
    const csvOf = async (viewer: { email: string; type: PermissionType }) => {
      const response = await nokRowsDownload({ id: String(job._id) }, viewer);
      return (await response.text()).split("\r\n").filter(Boolean);
    };
    const scoped = await csvOf({ email: STORE_EDITOR, type: "USER GOLD" });
    expect(scoped).toHaveLength(3); // the header, the Loja Centro row and the bad-CPF row of Loja Centro
    expect(scoped.slice(1).every((l) => l.includes("Loja Centro") && !l.includes("Loja Norte"))).toBe(true);
    const everything = await csvOf({ email: userOf("SYSTEM ADMIN"), type: "SYSTEM ADMIN" });
    expect(everything).toHaveLength(4);
    const text = everything.join("\n");
    expect(text).not.toMatch(/529\.?982\.?247-?25|123\.?456\.?789-?0/);
    expect(text).toContain("***.982.247-**");
  });

  it("an upload changes the figures of a stored person but never their nome or cpf", async () => {
    expect((await upload("rh-1.csv", exampleCsv("hr_aux"), userOf("SYSTEM ADMIN"))).status).toBe(0);
    const changed = exampleCsv("hr_aux", { nome: "Outra Pessoa", cpf: "111.444.777-35", vendas_adicionais: "99,00" });
    expect((await upload("rh-2.csv", changed, userOf("SYSTEM ADMIN"))).status).toBe(0);
    const stored = await (await testDb.db()).collection(HR_AUX).findOne({ filial_nome: "Loja Centro" });
    expect(stored).toMatchObject({ nome: "Ana Souza Lima", cpf: "52998224725", vendas_adicionais: 99 });
  });
});
