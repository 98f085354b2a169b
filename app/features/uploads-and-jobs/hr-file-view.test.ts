import { Readable } from "node:stream";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { grantPermission, useTempDataDir, xlsxBuffer } from "#test/upload-fixtures";
import { registerFile } from "~/models/file-jobs.server";
import { TEMPLATE_CATALOG } from "~/platform/import/catalog.server";
import { loader as downloadLoader } from "~/routes/download.$token";
import { action as repoFormatAction } from "~/routes/repo.format";
import { generateStorageKey, getLocalStore, LOCAL_BUCKET } from "~/services/storage.server";

/**
 * An HR upload downloaded from the repository (/repo/format → /download/{token}) leaves as /ij/rh shows
 * its data: the viewer's branches only, every CPF masked. Any other file downloads as stored.
 */

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
const testDb = useTestDatabase();
useTempDataDir();

const HR = TEMPLATE_CATALOG.find((t) => t.id === "hr_aux")!;
const header = HR.columns.map((c) => c.name);
const hrRow = (over: Record<string, string>) =>
  HR.columns.map((c) => (c.name in over ? over[c.name] : String(c.example)));
const ROWS = [
  hrRow({ filial_nome: "Loja Centro", matricula: "1", cpf: "529.982.247-25" }),
  hrRow({ filial_nome: "Loja Norte", matricula: "2", cpf: "111.444.777-35" }),
];

async function stored(name: string, content: Buffer | string): Promise<string> {
  const key = generateStorageKey(name);
  await getLocalStore().putStream(key, Readable.from([Buffer.from(content)]), { maxBytes: 1e9 });
  return String(await registerFile({ originalName: name, key, bucket: LOCAL_BUCKET, user: "uploader@example.com" }));
}

/** What `viewer` downloads of the file from /repo/format, as text. */
async function downloaded(
  fileId: string,
  viewer: { email: string; type: typeof currentUser.type },
): Promise<{ status: number; type: string | null; text: string }> {
  currentUser.email = viewer.email;
  currentUser.type = viewer.type;
  const form = new FormData();
  for (const [k, v] of Object.entries({ intent: "download", fileId, mode: "fetch" })) form.append(k, v);
  const answer = (await repoFormatAction({
    request: new Request("http://localhost/repo/format", { method: "POST", body: form }),
    params: {},
    context: {},
  })) as unknown;
  const link = (answer as { data: { ok: boolean; url: string } }).data.url;
  if (!link) throw new Error(JSON.stringify(answer));
  const response = (await downloadLoader({
    params: { token: link.slice("/download/".length) },
    request: new Request(`http://localhost${link}`),
    context: {},
  })) as Response;
  return { status: response.status, type: response.headers.get("Content-Type"), text: await response.text() };
}

let csvId = "";
let xlsxId = "";
let otherId = "";
let datedId = "";
beforeAll(async () => {
  const db = await testDb.db();
  await grantPermission(db, "centro@example.com", "USER GOLD", ["Loja Centro"]);
  await grantPermission(db, "admin@example.com", "SYSTEM ADMIN");
  csvId = await stored("rh.csv", [header, ...ROWS].map((r) => r.join(";")).join("\n"));
  xlsxId = await stored("rh.xlsx", await xlsxBuffer([header, ...ROWS]));
  // Nothing of HR in it (a CPF-shaped column would make it an HR file: hr-file-class.test.ts).
  otherId = await stored("outro.csv", "sku;valor\nA;10\n");
  // A workbook of HR people in a layout of its own, with a date cell (Excel keeps a day).
  datedId = await stored(
    "rh-admissoes.xlsx",
    await xlsxBuffer([
      ["filial", "nome", "cpf", "admissao"],
      ["Loja Centro", "Ana", "529.982.247-25", new Date(Date.UTC(2024, 2, 15))],
    ]),
  );
});

describe("an HR upload downloaded from the repository", () => {
  for (const [format, id] of [
    ["CSV", () => csvId],
    ["XLSX", () => xlsxId],
  ] as const) {
    it(`${format}: a store-limited account gets its branch's rows only, with the CPF masked`, async () => {
      const { status, type, text } = await downloaded(id(), { email: "centro@example.com", type: "USER GOLD" });
      expect(status).toBe(200);
      expect(type).toBe("text/csv; charset=utf-8");
      const lines = text
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      expect(lines[0]).toBe(header.join(";"));
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain("Loja Centro");
      expect(lines[1]).toContain(";***.982.247-**;");
      expect(text).not.toMatch(/529\.982\.247-25|Loja Norte|111\.444\.777-35/);
    });
  }

  it("a date cell reads as the portal writes a day (DD/MM/yyyy), not as ISO text", async () => {
    const { status, text } = await downloaded(datedId, { email: "admin@example.com", type: "SYSTEM ADMIN" });
    expect(status).toBe(200);
    const rows = text
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
    expect(rows).toEqual(["filial;nome;cpf;admissao", "Loja Centro;Ana;***.982.247-**;15/03/2024"]);
  });

  it("an account of every branch gets every row, still masked", async () => {
    const { text } = await downloaded(csvId, { email: "admin@example.com", type: "SYSTEM ADMIN" });
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(3);
    expect(text).toContain("***.444.777-**");
    expect(text).not.toMatch(/529\.982\.247-25|111\.444\.777-35/);
  });

  it("any other file downloads as it was stored", async () => {
    const { text } = await downloaded(otherId, { email: "centro@example.com", type: "USER GOLD" });
    expect(text).toBe("sku;valor\nA;10\n");
  });
});
