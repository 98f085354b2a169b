import { Readable } from "node:stream";
import type { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import {
  PRODUCT_HEADER,
  productLine,
  storeAndRegister,
  TEST_UPLOADER,
  useTempDataDir,
  xlsxBuffer,
} from "#test/upload-fixtures";
import {
  claimNextJob,
  FILE_STATUS_UNKNOWN_LAYOUT,
  FILE_STATUS_UNREADABLE,
  findFileById,
  finishJob,
  type JobClaim,
  markApplyBegun,
  reportProgress,
} from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import {
  CHANNEL,
  CHANNEL_NOK,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import {
  GIVEN_UP_GRACE_MS,
  type IngestClock,
  ingestClaimedFile,
  removeRowsOfGivenUpFiles,
  rowIdsFor,
} from "~/platform/import/ingest.server";
import { jobGiveUpTexts } from "~/platform/import/texts";
import { MAX_ATTEMPTS, processNextJob, startWorker } from "~/platform/import/worker-loop.server";

const testDb = useTestDatabase();
useTempDataDir();

const run = () => processNextJob({ name: "test-worker", leaseMs: 60_000, progressIntervalMs: 50 });

async function rows(collection: string, fileId: ObjectId) {
  return (await testDb.db()).collection(collection).find({ sourceFileId: fileId }).sort({ _lineNumber: 1 }).toArray();
}

describe("worker: product master", () => {
  it("imports a ;-delimited CSV into OK and NOK with line numbers and error texts", async () => {
    const csv = [
      PRODUCT_HEADER,
      productLine(1),
      productLine(2, true),
      productLine(3),
      "",
      "SKU-9;;;;;;hero;E;;;31/02/2027",
    ].join("\n");
    const { id, key } = await storeAndRegister("produtos.csv", csv);
    const outcome = await run();
    expect(outcome).toMatchObject({ kind: "done", status: 0, message: "2 linhas OK, 2 NOK" });
    const file = await findFileById(id);
    expect(file).toMatchObject({
      status: 0,
      progress: 100,
      message: "2 linhas OK, 2 NOK",
      agent: "test-worker",
      attempts: 1,
      // Kept with the job: the lists tell "concluído com recusas" from what happened, not from the message's words.
      nokRows: 2,
    });

    const ok = await rows(PRODUCT_MASTER, id);
    expect(ok.map((r) => [r.sku, r._lineNumber])).toEqual([
      ["SKU1", 2],
      ["SKU3", 4],
    ]);
    expect(ok[0]).toMatchObject({
      hero: "hero",
      abcd: "B",
      urlPath: key,
      data_validade_sku: new Date("2027-12-31T00:00:00Z"),
    });
    // What the planning filter reads besides the columns: PLC Local as plc_localsku, and the SKU-hero key.
    expect(ok[0]).toMatchObject({ plc_local: "ativo", plc_localsku: "ativo", skherou: "SKU1-hero" });

    const nok = await rows(PRODUCT_MASTER_NOK, id);
    expect(nok.map((r) => r._lineNumber)).toEqual([3, 6]);
    expect(nok[0]).toMatchObject({
      sku: "SKU2",
      urlPath: key,
      Error: 'Coluna hero: valor "maybe" inválido; esperado hero ou non-hero',
    });
    expect(nok[0].timeStamp).toBeInstanceOf(Date);
    const errors = String(nok[1].Error).split(" | ");
    expect(errors).toEqual([
      'Coluna sku: valor "SKU-9" inválido; esperado apenas letras e dígitos',
      'Coluna material_description: valor "" inválido; campo obrigatório',
      'Coluna marca: valor "" inválido; campo obrigatório',
      'Coluna abcd: valor "E" inválido; esperado A, B, C, D ou vazio',
      'Coluna data_validade_sku: valor "31/02/2027" inválido; esperado uma data válida (AAAA-MM-DD, DD/MM/AAAA ou AAAAMMDD)',
    ]);
  });

  it("imports the same template from XLSX (columns in any order and case, real dates)", async () => {
    const header = PRODUCT_HEADER.split(";")
      .reverse()
      .map((h) => h.toUpperCase());
    const line = (i: number, hero: string) =>
      ["2027-01-15", "global", "local", "D", "A", "Sub", "Principal", "CAT", "Marca", `Produto ${i}`, i].map(
        (v, idx) => (idx === 0 ? new Date(Date.UTC(2027, 0, 15)) : idx === 4 ? hero : v),
      );
    const buffer = await xlsxBuffer([header, line(1001, "non-hero"), line(1002, "super")]);
    const { id } = await storeAndRegister("produtos.xlsx", buffer);
    expect(await run()).toMatchObject({ kind: "done", status: 0, message: "1 linha OK, 1 NOK" });
    const ok = await rows(PRODUCT_MASTER, id);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({
      sku: "1001",
      hero: "non-hero",
      abcd: "D",
      data_validade_sku: new Date("2027-01-15T00:00:00Z"),
      _lineNumber: 2,
    });
    const nok = await rows(PRODUCT_MASTER_NOK, id);
    expect(nok[0]).toMatchObject({
      _lineNumber: 3,
      Error: 'Coluna hero: valor "super" inválido; esperado hero ou non-hero',
    });
  });
});

describe("worker: channel and spend", () => {
  it("validates CNPJ check digits (comma-delimited CSV)", async () => {
    const csv =
      "cnpj,description,channel_siop\n11.222.333/0001-81,Loja A,SIOP1\n11222333000182,Loja B,SIOP2\n11222333000181,,\n";
    const { id } = await storeAndRegister("canal.csv", csv);
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 2 NOK" });
    expect((await rows(CHANNEL, id))[0]).toMatchObject({
      cnpj: "11222333000181",
      description: "Loja A",
      channel_siop: "SIOP1",
      _lineNumber: 2,
    });
    const nok = await rows(CHANNEL_NOK, id);
    expect(nok[0].Error).toBe(
      'Coluna cnpj: valor "11222333000182" inválido; esperado um CNPJ de 14 dígitos com dígitos verificadores válidos',
    );
    expect(nok[1].Error).toBe('Coluna channel_siop: valor "" inválido; campo obrigatório');
    expect(nok[0].creationDate).toBeInstanceOf(Date);
  });

  it("imports planning spend from XLSX and CSV", async () => {
    const buffer = await xlsxBuffer([
      ["channel", "marca", "yearMonthDay"],
      ["wholesales", "Marca X", "20260131"],
      ["RETAIL", "Marca Y", "2026-02-30"],
      ["FSS", "Marca Z", "2026-03-01"],
    ]);
    const { id } = await storeAndRegister("spend.xlsx", buffer);
    expect(await run()).toMatchObject({ status: 0, message: "2 linhas OK, 1 NOK" });
    expect((await rows(PLANNING_SPEND, id)).map((r) => [r.channel, r.yearMonthDay])).toEqual([
      ["WHOLESALES", "20260131"],
      ["FSS", "20260301"],
    ]);
    expect((await rows(PLANNING_SPEND_NOK, id))[0].Error).toBe(
      'Coluna channel: valor "RETAIL" inválido; esperado WHOLESALES, BRANDSITE, ONLINE_PARTNERS ou FSS | Coluna yearMonthDay: valor "2026-02-30" inválido; esperado uma data válida AAAAMMDD ou AAAA-MM-DD',
    );
    const csv = await storeAndRegister("spend.csv", "channel;marca;yearMonthDay\nBRANDSITE;M;20251201\n");
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 0 NOK" });
    expect(await rows(PLANNING_SPEND, csv.id)).toHaveLength(1);
  });
});

describe("worker: failures", () => {
  it("finishes an unknown layout with status 2 and a clear message", async () => {
    const { id } = await storeAndRegister("outro.csv", "nome;idade\nAna;30\n");
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNKNOWN_LAYOUT });
    expect(await findFileById(id)).toMatchObject({
      status: 2,
      progress: 100,
      message: expect.stringMatching(/^Layout não reconhecido/),
    });
  });

  it("finishes an unreadable XLSX, an unsupported format and a missing object with status 3", async () => {
    const bad = await storeAndRegister("quebrado.xlsx", "this is not a zip file at all");
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNREADABLE });
    expect(await findFileById(bad.id)).toMatchObject({
      status: 3,
      progress: 100,
      message: expect.stringMatching(/^Não foi possível ler o arquivo/),
    });

    const zip = await storeAndRegister("pacote.zip", "PK");
    await run();
    expect(await findFileById(zip.id)).toMatchObject({
      status: 3,
      message: expect.stringContaining("Formato não suportado"),
    });

    const db = await testDb.db();
    const ghost = await db.collection(FILES).insertOne({
      originalName: "x.csv",
      originalFile: "2026/01/00000000-0000-0000-0000-000000000000.csv",
      bucket: "local",
      user: "a@b.c",
      clientName: "t",
      statusChangeDate: new Date(),
      createdAt: new Date(),
      status: 0,
      progress: 0,
      message: "",
      agent: "",
      leaseUntil: null,
      attempts: 0,
    });
    await run();
    expect(await findFileById(ghost.insertedId)).toMatchObject({
      status: 3,
      message: expect.stringContaining("não foi encontrado"),
    });
  });

  it("returns null when no job waits", async () => {
    expect(await run()).toBeNull();
  });
});

describe("worker: progress, leases, idempotency", () => {
  it("reports progress while working and finishes at 100", async () => {
    const lines = [PRODUCT_HEADER];
    for (let i = 0; i < 30_000; i++) lines.push(productLine(i, i % 100 === 0));
    const { id } = await storeAndRegister("grande.csv", lines.join("\n"));
    const db = await testDb.db();
    const seen: number[] = [];
    const poll = setInterval(() => {
      void db
        .collection(FILES)
        .findOne({ _id: id })
        .then((f) => f && seen.push(f.progress));
    }, 20);
    const outcome = await processNextJob({
      name: "progress-worker",
      leaseMs: 60_000,
      progressIntervalMs: 50,
      batchSize: 500,
    });
    clearInterval(poll);
    expect(outcome).toMatchObject({ status: 0, message: "29.700 linhas OK, 300 NOK" });
    expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
  });

  it("a re-run of the same file leaves no duplicates", async () => {
    const csv = [PRODUCT_HEADER, productLine(1), productLine(2, true)].join("\n");
    const { id } = await storeAndRegister("rerun.csv", csv);
    await run();
    // Simulate a re-run (Reprocessar, which gives the job a fresh allowance of claims): the job goes back to the queue.
    await (await testDb.db())
      .collection(FILES)
      .updateOne({ _id: id }, { $set: { progress: 0, leaseUntil: null, retryBase: 1 } });
    expect(await run()).toMatchObject({ message: "1 linha OK, 1 NOK" });
    expect(await rows(PRODUCT_MASTER, id)).toHaveLength(1);
    expect(await rows(PRODUCT_MASTER_NOK, id)).toHaveLength(1);
  });

  it("a claim is exclusive until its lease expires, and a stale owner cannot finish", async () => {
    const { id } = await storeAndRegister("lease.csv", [PRODUCT_HEADER, productLine(1)].join("\n"));
    const first = await claimNextJob({ agent: "A", leaseMs: 1_000 });
    expect(first?.id.equals(id)).toBe(true);
    expect(await claimNextJob({ agent: "B", leaseMs: 1_000 })).toBeNull();
    const later = new Date(Date.now() + 1_500);
    const second = await claimNextJob({ agent: "B", leaseMs: 60_000, now: later });
    expect(second).toMatchObject({ agent: "B", attempts: 2 });
    expect(await reportProgress(first!, { progress: 50, message: "x" })).toBe(false);
    expect(await finishJob(first!, { status: 0, message: "stale" })).toBe(false);
    expect(await finishJob(second!, { status: 0, message: "ok" })).toBe(true);
    expect(await findFileById(id)).toMatchObject({ agent: "B", message: "ok", progress: 100 });
  });

  it("concurrent workers never both finish one file", async () => {
    const ids: ObjectId[] = [];
    for (let f = 0; f < 4; f++)
      ids.push(
        (await storeAndRegister(`c${f}.csv`, [PRODUCT_HEADER, productLine(f), productLine(f + 10)].join("\n"))).id,
      );
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        const done: string[] = [];
        for (;;) {
          const o = await processNextJob({ name: `w${w}`, leaseMs: 60_000, progressIntervalMs: 50 });
          if (!o) return done;
          if (o.kind === "done") done.push(w.toString());
        }
      }),
    );
    expect(outcomes.flat()).toHaveLength(4);
    for (const id of ids) {
      expect(await findFileById(id)).toMatchObject({ attempts: 1, progress: 100, message: "2 linhas OK, 0 NOK" });
      expect(await rows(PRODUCT_MASTER, id)).toHaveLength(2);
    }
  });
});

describe("worker: encodings", () => {
  it("reads a Latin-1 CSV (Windows export) without mangling accents", async () => {
    const text = [PRODUCT_HEADER, "SKU77;Café com açúcar;Marca;C;P;S;hero;A;;;2027-01-01"].join("\r\n");
    const { id } = await storeAndRegister("latin1.csv", Buffer.from(text, "latin1"));
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 0 NOK" });
    expect((await rows(PRODUCT_MASTER, id))[0]).toMatchObject({ material_description: "Café com açúcar" });
  });
});

describe("worker: give-up limit", () => {
  /** `count` claims that die with the job (each lease runs out, nothing finished), as killed workers leave it. */
  async function dyingClaims(count: number, afterEach?: (claim: JobClaim) => Promise<unknown>) {
    const start = Date.now() - 60_000;
    for (let i = 0; i < count; i++) {
      const claim = await claimNextJob({ agent: `dead-${i}`, leaseMs: 1, now: new Date(start + i * 10) });
      expect(claim).not.toBeNull();
      await afterEach?.(claim!);
    }
  }

  it("gives up a file claimed too many times, and a retry gives it a fresh allowance", async () => {
    const { id } = await storeAndRegister("crashy.csv", [PRODUCT_HEADER, productLine(1)].join("\n"));
    const db = await testDb.db();
    await db.collection(FILES).updateOne({ _id: id }, { $set: { attempts: MAX_ATTEMPTS } });
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNREADABLE, message: jobGiveUpTexts.nothingKept(3) });
    const { retryJob } = await import("~/models/file-jobs.server");
    expect(await retryJob(id, { email: TEST_UPLOADER, type: "USER BRONZE" })).toEqual({ ok: true });
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 0 NOK" });
    expect(await findFileById(id)).toMatchObject({ attempts: MAX_ATTEMPTS + 2, progress: 100 });
  });

  it("takes over a file whose worker died with it: the next claim starts it again and keeps its rows once", async () => {
    const { id } = await storeAndRegister(
      "caiu.csv",
      [PRODUCT_HEADER, productLine(1), productLine(2, true)].join("\n"),
    );
    const rowId = rowIdsFor(id);
    // The dead claim wrote the first row of each base before it died.
    await dyingClaims(1, async () => {
      const db = await testDb.db();
      await db.collection(PRODUCT_MASTER).insertOne({ _id: rowId(2), sku: "SKU1", sourceFileId: id, _lineNumber: 2 });
      await db.collection(PRODUCT_MASTER_NOK).insertOne({ _id: rowId(3), sourceFileId: id, _lineNumber: 3 });
    });
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 1 NOK" });
    expect(await findFileById(id)).toMatchObject({ agent: "test-worker", attempts: 2, progress: 100, status: 0 });
    expect((await rows(PRODUCT_MASTER, id)).map((r) => [r.sku, r._lineNumber, r.marca])).toEqual([
      ["SKU1", 2, "Marca 1"],
    ]);
    expect((await rows(PRODUCT_MASTER_NOK, id)).map((r) => r._lineNumber)).toEqual([3]);
  });

  it("gives up a file whose every claim died, removing the rows they wrote; a retry then imports it once", async () => {
    const other = await storeAndRegister("outro.csv", [PRODUCT_HEADER, productLine(5)].join("\n"));
    expect(await run()).toMatchObject({ status: 0 }); // another file's rows, which stay
    const { id } = await storeAndRegister(
      "bomb.csv",
      [PRODUCT_HEADER, productLine(1), productLine(2, true)].join("\n"),
    );
    const rowId = rowIdsFor(id);
    // The first dead claim wrote a row to each base; the others died before writing.
    await dyingClaims(MAX_ATTEMPTS, async (claim) => {
      if (claim.attempts > 1) return;
      const db = await testDb.db();
      await db.collection(PRODUCT_MASTER).insertOne({ _id: rowId(2), sku: "SKU1", sourceFileId: id, _lineNumber: 2 });
      await db.collection(PRODUCT_MASTER_NOK).insertOne({ _id: rowId(3), sourceFileId: id, _lineNumber: 3 });
    });
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNREADABLE, message: jobGiveUpTexts.nothingKept(3) });
    expect(await findFileById(id)).toMatchObject({
      attempts: MAX_ATTEMPTS + 1,
      progress: 100,
      status: FILE_STATUS_UNREADABLE,
      retryable: true,
      message: jobGiveUpTexts.nothingKept(3),
    });
    expect(await rows(PRODUCT_MASTER, id)).toEqual([]);
    expect(await rows(PRODUCT_MASTER_NOK, id)).toEqual([]);
    expect(await rows(PRODUCT_MASTER, other.id)).toHaveLength(1);
    expect(await run()).toBeNull();

    const { retryJob } = await import("~/models/file-jobs.server");
    expect(await retryJob(id, { email: TEST_UPLOADER, type: "USER BRONZE" })).toEqual({ ok: true });
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 1 NOK" });
    expect(await rows(PRODUCT_MASTER, id)).toHaveLength(1);
    expect(await rows(PRODUCT_MASTER_NOK, id)).toHaveLength(1);
  });

  it("says part of the file may be applied when a claim that died had begun applying it", async () => {
    await storeAndRegister("aplicando.csv", [PRODUCT_HEADER, productLine(1)].join("\n"));
    await dyingClaims(MAX_ATTEMPTS, async (claim) => claim.attempts === 2 && markApplyBegun(claim));
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNREADABLE, message: jobGiveUpTexts.partlyApplied(3) });
  });
});

/** A claimer paused mid-file: its timers fire only when the test wakes it, at the time the test sets. */
class PausedClock implements IngestClock {
  private timers: Array<() => unknown> = [];
  constructor(public time: number) {}
  now(): Date {
    return new Date(this.time);
  }
  setTimer(_ms: number, fire: () => unknown): () => void {
    this.timers.push(fire);
    return () => {
      this.timers = this.timers.filter((t) => t !== fire);
    };
  }
  async wake(at: number): Promise<void> {
    this.time = at;
    const due = this.timers;
    this.timers = [];
    for (const fire of due) await fire();
  }
}

describe("worker: a stale claimer", () => {
  const ROWS = 3_000; // its first half is past the CSV reader's 64 KB sample, so batches are written before the pause

  async function staleClaimer(name: string) {
    const lines = [PRODUCT_HEADER];
    for (let i = 1; i <= ROWS; i++) lines.push(productLine(i, i % 10 === 0));
    const bytes = Buffer.from(`${lines.join("\n")}\n`);
    const { id } = await storeAndRegister(name, bytes);
    const since = Date.now() - 120_000;
    const claim = await claimNextJob({ agent: "paused", leaseMs: 1, now: new Date(since) });
    expect(claim?.id.equals(id)).toBe(true);
    const clock = new PausedClock(since);
    let resume: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    async function* source() {
      yield bytes.subarray(0, bytes.length / 2);
      await paused;
      yield bytes.subarray(bytes.length / 2);
    }
    const running = ingestClaimedFile(claim!, {
      leaseMs: 1,
      batchSize: 25,
      stallTimeoutMs: 5_000,
      clock,
      openSource: async () => ({ stream: Readable.from(source()), size: bytes.length }),
    });
    const written = async () => (await rows(PRODUCT_MASTER, id)).length + (await rows(PRODUCT_MASTER_NOK, id)).length;
    await expect.poll(written, { timeout: 10_000 }).toBeGreaterThan(0);
    return { id, clock, resume, running };
  }

  it("writes no batch once the job was given up: the given-up file keeps no rows", async () => {
    const { id, resume, running } = await staleClaimer("pausado.csv");
    for (let i = 2; i <= MAX_ATTEMPTS + 1; i++) {
      const claim = await claimNextJob({ agent: `dead-${i}`, leaseMs: 1, now: new Date(Date.now() - 60_000 + i) });
      expect(claim?.attempts).toBe(i);
    }
    // The next claim gives the file up.
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNREADABLE, message: jobGiveUpTexts.nothingKept(3) });
    resume(); // the paused claimer wakes and reads on
    expect(await running).toEqual({ kind: "lease-lost" });
    expect(await rows(PRODUCT_MASTER, id)).toEqual([]);
    expect(await rows(PRODUCT_MASTER_NOK, id)).toEqual([]);
  });

  it("does not remove the rows of the worker that took its job over", async () => {
    const { id, clock, resume, running } = await staleClaimer("retomado.csv");
    expect(await run()).toMatchObject({ status: 0, message: "2.700 linhas OK, 300 NOK" });
    // The paused claimer wakes long after: its first beat finds its source silent past the limit.
    await clock.wake(clock.time + 60_000);
    expect(await running).toEqual({ kind: "lease-lost" });
    resume();
    expect(await rows(PRODUCT_MASTER, id)).toHaveLength(2_700);
    expect(await rows(PRODUCT_MASTER_NOK, id)).toHaveLength(300);
    expect(await findFileById(id)).toMatchObject({ status: 0, progress: 100, attempts: 2 });
  });

  it("removes, after a grace period, rows a given-up file's late batch wrote; a retried file's are kept", async () => {
    const { id } = await storeAndRegister("tarde.csv", [PRODUCT_HEADER, productLine(1)].join("\n"));
    for (let i = 1; i <= MAX_ATTEMPTS; i++)
      await claimNextJob({ agent: `dead-${i}`, leaseMs: 1, now: new Date(Date.now() - 60_000 + i) });
    expect(await run()).toMatchObject({ status: FILE_STATUS_UNREADABLE });
    // A batch whose claim check passed before the give-up lands after it.
    const db = await testDb.db();
    await db.collection(PRODUCT_MASTER).insertOne({ _id: rowIdsFor(id)(2), sourceFileId: id, _lineNumber: 2 });
    await removeRowsOfGivenUpFiles({ now: new Date() });
    expect(await rows(PRODUCT_MASTER, id)).toHaveLength(1); // within the grace period
    await removeRowsOfGivenUpFiles({ now: new Date(Date.now() + GIVEN_UP_GRACE_MS + 1_000) });
    expect(await rows(PRODUCT_MASTER, id)).toEqual([]);

    const { retryJob } = await import("~/models/file-jobs.server");
    expect(await retryJob(id, { email: TEST_UPLOADER, type: "USER BRONZE" })).toEqual({ ok: true });
    expect(await run()).toMatchObject({ status: 0, message: "1 linha OK, 0 NOK" });
    await removeRowsOfGivenUpFiles({ now: new Date(Date.now() + GIVEN_UP_GRACE_MS + 1_000) });
    expect(await rows(PRODUCT_MASTER, id)).toHaveLength(1);
  });
});

describe("worker: stopping", () => {
  it("tells its periodic work to stop, and stops once the run in hand has ended", async () => {
    let signal: AbortSignal | undefined;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = startWorker({
      pollMs: 50,
      sweepIntervalMs: 0,
      periodic: {
        everyMs: 10,
        run: async (_now, stop) => {
          signal = stop;
          await held;
        },
      },
    });
    await expect.poll(() => signal).toBeDefined();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    expect(signal?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
