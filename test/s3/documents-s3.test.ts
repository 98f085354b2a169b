import mammoth from "mammoth";
import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureStatements } from "~/features/reports-and-financial/documents-statements.server";
import { readDocument } from "~/features/reports-and-financial/documents-store.server";
import { viewerContent } from "~/features/reports-and-financial/documents-viewer.server";
import { answerDownload } from "~/features/reports-and-financial/download.server";
import { LAST_CLOSED, ptBr, seedLedger } from "../../app/features/reports-and-financial/test-helpers";
import { useTestDatabase } from "../db";
import { useEnv } from "../env";
import { useMockServer } from "../mocks";
import { createFakeBucket, s3Handlers } from "../mocks/s3";

/** The report documents on the S3 provider (the fake bucket of test/mocks/s3.ts, as the other S3 tests). */
const env = {
  STORAGE: "s3",
  S3_BUCKET: "docs-bucket",
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "AKIAFAKEFAKEFAKE",
  AWS_SECRET_ACCESS_KEY: "fake/secret/key",
};
useEnv(env);

const testDb = useTestDatabase();
const server = useMockServer();
const bucket = createFakeBucket("docs-bucket");
let db: Db;

beforeAll(async () => {
  server.use(...s3Handlers(bucket));
  db = await testDb.db();
  await seedLedger(db);
});

describe("financial statements on S3", () => {
  it("are written to the bucket without the pending tag, read back by the viewer and downloaded through a presigned GET", async () => {
    server.use(...s3Handlers(bucket));
    const result = await ensureStatements(
      { businessUnitID: "2236", type: "MONTHLY", dateRef: LAST_CLOSED },
      "gold@example.com",
    );
    if (result.kind === "no-data") throw new Error("expected documents");
    for (const record of result.records) {
      expect(record.bucket).toBe("docs-bucket");
      expect(record.url).toBe(`s3://docs-bucket/${record.originalFile}`);
      expect(bucket.objects.has(record.originalFile)).toBe(true);
      // Written by the portal itself: registered at once, so the lifecycle rule on pending uploads keeps it.
      expect(bucket.tags.has(record.originalFile)).toBe(false);
    }
    const docx = result.records.find((r) => r.typeDocument === "DOCX")!;
    const text = (await mammoth.extractRawText({ buffer: await readDocument("docs-bucket", docx.originalFile) })).value;
    const cash = (await db
      .collection("ledger")
      .findOne({ businessUnitID: "2236", account: "1.1.01.002", month: LAST_CLOSED }))!;
    expect(text).toContain(ptBr(cash.actual));

    const xlsx = result.records.find((r) => r.typeDocument === "XLSX")!;
    const view = await viewerContent("docs-bucket", xlsx.originalFile);
    expect(view.kind).toBe("sheets");

    const answer = (await answerDownload(
      { bucket: "docs-bucket", key: xlsx.originalFile, filename: xlsx.originalName },
      "document",
    )) as Response;
    const link = new URL(answer.headers.get("Location")!);
    expect(link.host).toBe("docs-bucket.s3.us-east-1.amazonaws.com");
    expect(link.searchParams.get("X-Amz-Expires")).toBe("300");
    const fetched = await fetch(link);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(Buffer.from(bucket.objects.get(xlsx.originalFile)!))).toBe(
      true,
    );
  });

  it("a key missing from the bucket is a download failure (404), not an error page", async () => {
    server.use(...s3Handlers(bucket));
    const answer = await answerDownload(
      { bucket: "docs-bucket", key: "documents/none.xlsx", filename: "none.xlsx" },
      "fetch",
    );
    expect((answer as unknown as { init: { status: number } }).init.status).toBe(404);
  });
});
