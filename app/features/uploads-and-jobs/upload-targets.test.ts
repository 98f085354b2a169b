import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { type Transport, uploadToLocalStore } from "~/features/uploads-and-jobs/upload-transport";
import { applyIndexes } from "~/models/all-indexes.server";
import { resolveFileTarget } from "~/models/files.fields";
import { FILES } from "~/models/files.server";
import { action as registerAction } from "~/routes/api.files.register";
import { action as uploadAction } from "~/routes/api.upload";
import { getLocalStore } from "~/services/storage.server";
import { readToastFromResponse } from "~/shared/toast.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
useTempDataDir();

const call = (fn: (args: ActionFunctionArgs) => Promise<unknown>, request: Request) =>
  fn({ request, params: {}, context: {} }) as Promise<Response>;
const post = (form: FormData, json = true) =>
  call(
    uploadAction,
    new Request("http://localhost/api/upload", {
      method: "POST",
      headers: json ? { Accept: "application/json" } : {},
      body: form,
    }),
  );

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of getLocalStore().list()) keys.push(entry.key);
  return keys;
}

beforeAll(async () => {
  await applyIndexes(await testDb.db());
});

beforeEach(() => {
  currentUser.type = "USER BRONZE";
  currentUser.email = "bronze@example.com";
});

describe('"Tipo de carga" of an upload (target)', () => {
  it("stores the chosen target on the file record; no choice is data; PDF/DOCX are always documents", async () => {
    const cases: Array<[string, string | null, string]> = [
      ["dados.csv", null, "data"],
      ["texto.txt", "explorer", "explorer"],
      ["planilha.xlsx", "data", "data"],
      ["contrato.pdf", null, "explorer"],
      ["ata.docx", "data", "explorer"],
      ["pacote.zip", "reports", "reports"],
      ["outro.zip", null, "data"],
    ];
    const db = await testDb.db();
    for (const [name, target, stored] of cases) {
      const form = new FormData();
      if (target !== null) form.append("target", target);
      form.append("files", new Blob(["x"]), name);
      const answer = await post(form);
      expect(answer.status).toBe(200);
      const body = await answer.json();
      expect(await db.collection(FILES).findOne({ originalFile: body.files[0].key })).toMatchObject({
        originalName: name,
        target: stored,
      });
    }
  });

  it("refuses a bad target with a message, before a byte is kept (JSON: 400; plain post: back with a toast)", async () => {
    const db = await testDb.db();
    const filesBefore = await db.collection(FILES).countDocuments();
    const keysBefore = await storedKeys();
    const form = new FormData();
    form.append("target", "planilha'); db.dropDatabase(); //");
    form.append("files", new Blob(["x"]), "a.csv");
    const answer = await post(form);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      ok: false,
      code: "COD.2",
      detail: expect.stringMatching(
        /^Tipo de carga inválido: "planilha'\); db\.dropDatabase\(\); \/\/"\. Escolha Planilha de dados, Documento do Explorer ou Pacote de relatórios\.$/,
      ),
    });

    const plain = await post(form, false);
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toBe("/captura/manual");
    expect(await readToastFromResponse(plain)).toMatchObject({
      type: "error",
      description: expect.stringMatching(/^Tipo de carga inválido/),
    });

    // A target sent after the file is refused too, and the stored file removed
    const late = new FormData();
    late.append("files", new Blob(["x"]), "b.csv");
    late.append("target", "x".repeat(500));
    const lateAnswer = await post(late);
    expect(lateAnswer.status).toBe(400);
    expect((await lateAnswer.json()).detail).toMatch(/^Tipo de carga inválido/);

    expect(await db.collection(FILES).countDocuments()).toBe(filesBefore);
    expect(await storedKeys()).toEqual(keysBefore);
  });

  it("refuses a bad target at /api/files/register (S3 path) with a message and registers nothing", async () => {
    const request = new Request("http://localhost/api/files/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        originalName: "a.csv",
        srcBucket: "b",
        srcKey: "2026/01/k.csv",
        ticket: "x".repeat(20),
        target: { $ne: "data" },
      }),
    });
    const answer = await call(registerAction, request);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ ok: false, detail: expect.stringMatching(/^Tipo de carga inválido/) });
  });

  it("sends the choice before the file from the browser transport", async () => {
    let sent: FormData | null = null;
    const transport: Transport = {
      sendBytes: async (_method, _url, body) => {
        sent = body as FormData;
        return { status: 200, body: { ok: true }, etag: null };
      },
      postJson: async () => ({ status: 200, body: { ok: true } }),
    };
    const outcome = await uploadToLocalStore(new File(["x"], "nota.txt"), () => undefined, transport, "explorer")
      .promise;
    expect(outcome).toEqual({ ok: true });
    expect([...(sent as unknown as FormData).keys()]).toEqual(["target", "files"]);
    expect((sent as unknown as FormData).get("target")).toBe("explorer");
  });

  it("resolves the target from the choice and the extension", () => {
    expect(resolveFileTarget(undefined, "a.CSV")).toBe("data");
    expect(resolveFileTarget("reports", "a.xlsx")).toBe("reports");
    expect(resolveFileTarget("data", "scan.PDF")).toBe("explorer");
    expect(resolveFileTarget(undefined, "pacote.Zip")).toBe("data");
    expect(resolveFileTarget("reports", "pacote.Zip")).toBe("reports");
  });
});
