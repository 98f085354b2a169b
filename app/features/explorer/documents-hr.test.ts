import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { storeUpload } from "#test/uploads";
import { applyIndexes } from "~/models/all-indexes.server";
import {
  EXPLORER_DOCUMENTS,
  ExplorerSourceNotPlainError,
  saveUploadedExplorerDocument,
  uploadedDocumentId,
} from "~/models/explorer.server";
import { findFileById } from "~/models/file-jobs.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { loader as searchLoader } from "~/routes/ij.explorer";
import { loader as documentLoader } from "~/routes/ij.explorer_.$id";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/** An HR spreadsheet sent as an explorer document is refused by the worker, never indexed for the explorer's readers. */

const testDb = useTestDatabase();
useTempDataDir();

const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 10 });

/** Sent by a USER SILVER (may upload explorer documents; reads /ij/rh). */
const upload = (name: string, content: Buffer | string) =>
  storeUpload(name, content, { user: "silver@example.com", grant: "USER SILVER", target: "explorer" });

/** What the least-privileged explorer reader (USER EXPLORER: no /ij/rh) finds for `text`. */
async function found(text: string): Promise<string[]> {
  const request = new Request(`http://localhost/ij/explorer?search=${encodeURIComponent(text)}`);
  const data = await searchLoader({ request, params: {}, context: {} as never });
  return (data.results?.rows ?? []).map((row) => row.title.map((s) => s.text).join(""));
}

/** The status /ij/explorer/{id} answers the USER EXPLORER with (404 when nothing was indexed). */
async function pageStatus(originalName: string): Promise<number> {
  const id = uploadedDocumentId(originalName).toHexString();
  const request = new Request(`http://localhost/ij/explorer/${id}`);
  try {
    const result = (await documentLoader({ request, params: { id }, context: {} as never })) as unknown as {
      init?: { status?: number };
    };
    return result.init?.status ?? 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

const REFUSED = "Documento com dados de RH (CPF) não é indexado no Explorer.";

beforeAll(async () => {
  await applyIndexes(await testDb.db());
});

beforeEach(() => {
  currentUser.email = "explorer@example.com";
  currentUser.type = "USER EXPLORER";
});

describe("an HR spreadsheet uploaded as an explorer document", () => {
  it("a CSV with a CPF column is refused with why, and no explorer reader finds its names or CPFs", async () => {
    const { id } = await upload(
      "folha_marco.csv",
      "nome;cpf;salario\nRenata Souza Lima;529.982.247-25;8500\nBruno Tavares;111.444.777-35;6100\n",
    );
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect(await findFileById(id)).toMatchObject({ status: 3, message: REFUSED, dataClass: "hr" });
    expect(await found("Renata")).toEqual([]);
    expect(await found("Tavares")).toEqual([]);
    expect(await found("529.982.247-25")).toEqual([]);
    expect(await found("52998224725")).toEqual([]);
    expect(await pageStatus("folha_marco.csv")).toBe(404);
    expect(await (await testDb.db()).collection(EXPLORER_DOCUMENTS).countDocuments({ sourceFileId: id })).toBe(0);
  });

  it("an XLSX whose CPFs sit under another header is refused the same way", async () => {
    const { id } = await upload(
      "colaboradores.xlsx",
      await xlsxBuffer([
        ["Colaborador", "Documento", "Salário"],
        ["Renata Souza Lima", "529.982.247-25", 8500],
        ["Bruno Tavares", "111.444.777-35", 6100],
      ]),
    );
    expect(await run()).toMatchObject({ kind: "done", status: 3 });
    expect(await findFileById(id)).toMatchObject({ status: 3, message: REFUSED, dataClass: "hr" });
    expect(await found("Renata Souza")).toEqual([]);
    expect(await found("8500")).toEqual([]);
    expect(await pageStatus("colaboradores.xlsx")).toBe(404);
  });

  it("a spreadsheet with no HR sign is still indexed and found", async () => {
    const { id } = await upload("lojas_regiao.csv", "loja;cidade\nLoja Centro;Itapetininga\n");
    expect(await run()).toMatchObject({ kind: "done", status: 0 });
    expect(await findFileById(id)).toMatchObject({ status: 0, dataClass: "plain" });
    expect(await found("Itapetininga")).toEqual(["lojas regiao"]);
  });
});

describe("the explorer index itself", () => {
  it("takes no text whose file is classified HR or not classified at all", async () => {
    const hr = await upload("holerites.csv", "nome;cpf\nRenata Souza Lima;529.982.247-25\n");
    const unclassified = await upload("sem_classe.txt", "Texto qualquer.");
    await (await testDb.db()).collection("files").updateOne({ _id: hr.id }, { $set: { dataClass: "hr" } });
    for (const { id, key } of [hr, unclassified]) {
      const name = `${id.toHexString()}.csv`;
      const document = {
        ...{ title: name, body: "Renata Souza Lima 529.982.247-25", source: "Captura manual", category: "CSV" },
        ...{ date: new Date(), originalName: name, sourceFileId: id, user: "silver@example.com" },
        file: { bucket: "local", key, name },
      };
      await expect(saveUploadedExplorerDocument(document)).rejects.toThrow(ExplorerSourceNotPlainError);
    }
    expect(await found("Renata")).toEqual([]);
  });
});
