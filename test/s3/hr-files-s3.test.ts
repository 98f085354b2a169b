import type { Db } from "mongodb";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { registerFile } from "~/models/file-jobs.server";
import { FISCAL_ITEMS } from "~/models/fiscal.server";
import { BUSINESS_UNITS } from "~/models/reports.fields";
import { TEMPLATE_CATALOG } from "~/platform/import/catalog.server";
import { loader as downloadLoader } from "~/routes/download.$token";
import { action as fiscalAction } from "~/routes/ij.fiscal";
import { generateStorageKey } from "~/services/storage.server";
import { currentUser } from "../auth-mock";
import { useTestDatabase } from "../db";
import { useEnv } from "../env";
import { useMockServer } from "../mocks";
import { createFakeBucket, s3Handlers } from "../mocks/s3";
import { grantPermission } from "../upload-fixtures";

/**
 * On S3, the fiscal asset page hands its items' worksheets out through a presigned GET straight to the bucket. A
 * worksheet that is an HR file (a repository upload classified HR) must not: it leaves through the portal's own link,
 * which gives a store-limited account only its branch's rows with the CPF masked.
 */

vi.mock("~/platform/auth/auth.server", () => import("../auth-mock"));
useEnv({
  STORAGE: "s3",
  S3_BUCKET: "hr-bucket",
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE",
  AWS_SECRET_ACCESS_KEY: "fake/secret/key",
  AWS_SESSION_TOKEN: undefined,
});
const testDb = useTestDatabase();
const server = useMockServer();
const bucket = createFakeBucket("hr-bucket");
let db: Db;

const HR = TEMPLATE_CATALOG.find((t) => t.id === "hr_aux")!;
const hrRow = (over: Record<string, string>) =>
  HR.columns.map((c) => (c.name in over ? over[c.name] : String(c.example)));
const CSV = [
  HR.columns.map((c) => c.name),
  hrRow({ filial_nome: "Loja Centro", nome: "Ana Centro", cpf: "529.982.247-25" }),
  hrRow({ filial_nome: "Loja Norte", nome: "Bruno Norte", cpf: "111.444.777-35" }),
]
  .map((r) => r.join(";"))
  .join("\n");
const UNIT = BUSINESS_UNITS[0];
let itemId = "";

beforeAll(async () => {
  db = await testDb.db();
  await grantPermission(db, "centro@example.com", "USER GOLD", ["Loja Centro"]);
  const key = generateStorageKey("folha-filiais.csv");
  bucket.objects.set(key, new TextEncoder().encode(CSV));
  await registerFile({ originalName: "folha-filiais.csv", key, bucket: "hr-bucket", user: "rh@example.com" });
  const item = await db.collection(FISCAL_ITEMS).insertOne({
    businessUnitID: UNIT,
    year: 2026,
    account: "1.1.05.001",
    description: "ICMS a recuperar",
    value: 1000,
    worksheet: { bucket: "hr-bucket", key, name: "folha-filiais.csv" },
    document: { bucket: "hr-bucket", key, name: "folha-filiais.csv" },
  });
  itemId = String(item.insertedId);
});

describe("the fiscal worksheet on S3", () => {
  it("of an HR file leaves through the portal's link: its branch's rows only, CPF masked", async () => {
    server.use(...s3Handlers(bucket));
    currentUser.email = "centro@example.com";
    currentUser.type = "USER GOLD";
    const form = new FormData();
    const fields = { intent: "download", mode: "document", company: UNIT, itemId, file: "worksheet" };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const answer = (await fiscalAction({
      request: new Request("http://localhost/ij/fiscal", { method: "POST", body: form }),
      params: {},
      context: {},
    })) as Response;
    expect(answer.status).toBe(302);
    const location = answer.headers.get("Location")!;
    const got = location.startsWith("/download/")
      ? await (
          (await downloadLoader({
            params: { token: location.slice("/download/".length) },
            request: new Request(`http://localhost${location}`),
            context: {},
          })) as Response
        ).text()
      : await (await fetch(location)).text();
    expect(got).toContain("Ana Centro");
    expect(got).toContain("***.982.247-**");
    expect(got).not.toMatch(/Loja Norte|Bruno Norte|529\.982\.247-25|111\.444\.777-35/);
  });
});
