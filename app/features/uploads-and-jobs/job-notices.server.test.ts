import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer, responseOf } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { getArgs, postArgs } from "#test/requests";
import { grantPermission, NON_EXAMPLE_CELL, PRODUCT_HEADER, productLine, useTempDataDir } from "#test/upload-fixtures";
import { storeUpload, uploadAndProcess } from "#test/uploads";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { noticeTexts } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { MAIL_OUTBOX } from "~/models/auth-records.server";
import { claimNextJob, findFileById, type JobClaim, retryFailedJobs, retryJob } from "~/models/file-jobs.server";
import { FILES } from "~/models/files.server";
import { listNotices, listQueuedMail, NOTICE_MAIL, NOTICES } from "~/models/notices.server";
import { getPreferences, savePreferences } from "~/models/user-preferences.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { startSession } from "~/platform/auth/session.server";
import { TEMPLATE_CATALOG } from "~/platform/import/catalog.server";
import { FILE_STATUS_REJECTED } from "~/platform/import/datasets/ingest.server";
import { ingestClaimedFile } from "~/platform/import/ingest.server";
import { notifyJobEnded } from "~/platform/import/job-notices.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { deliverPendingMail } from "~/platform/notices/mail-dispatch.server";
import * as settingsRoute from "~/routes/user.settings";
import { readLatestMail } from "~/services/mail.server";
import { openReadStream } from "~/services/storage.server";

/**
 * A job that ends badly tells its uploader (the in-portal list and e-mail), with the file's name, the
 * outcome, the counts, the first three reasons and a link to the job; a job without errors only an uploader who asked;
 * SYSTEM ADMINs on call are told of everyone's failures. One notice per ending, and a notice never fails the job.
 */

const failNotify = vi.hoisted(() => ({ on: false }));
vi.mock("~/models/notices.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/models/notices.server")>();
  return {
    ...actual,
    notify: (...args: Parameters<typeof actual.notify>) =>
      failNotify.on ? Promise.reject(new Error("notices down")) : actual.notify(...args),
  };
});

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
useTempDataDir();
const makeUser = userMaker({ prefix: "envio", name: "Envio", passwordHash: () => "scrypt$unused" });

let bronze: string; // an uploader
let gold: string; // another uploader
let onCall: string; // a SYSTEM ADMIN on call
let offCall: string; // a SYSTEM ADMIN not on call

const worker = { name: "notice-worker", progressIntervalMs: 20 };
const noticesOf = async (email: string) => (await listNotices(email, 1)).rows;
const clearNotices = async () => {
  const db = await testDb.db();
  await Promise.all([NOTICES, NOTICE_MAIL, MAIL_OUTBOX].map((name) => db.collection(name).deleteMany({})));
};
/** The e-mails an address received: the queue delivered to the outbox (MAIL=outbox), oldest first. */
const mailsTo = async (email: string) => {
  await deliverPendingMail(new Date());
  return (await testDb.db())
    .collection<{ subject: string; text: string }>(MAIL_OUTBOX)
    .find({ to: email })
    .sort({ _id: 1 })
    .toArray();
};

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
  bronze = await makeUser("USER BRONZE");
  gold = await makeUser("USER GOLD");
  onCall = await makeUser("SYSTEM ADMIN");
  offCall = await makeUser("SYSTEM ADMIN");
  await savePreferences(onCall, { onCallFailures: true });
});

beforeEach(async () => {
  failNotify.on = false;
  await clearNotices();
});

const productCsv = (bad: number[], count = 6) =>
  [PRODUCT_HEADER, ...Array.from({ length: count }, (_, i) => productLine(i + 1, bad.includes(i + 1)))].join("\n");

describe("a job that ends with refused rows", () => {
  it("tells its uploader: file name, outcome, counts, the first three reasons and a link, in the list and by e-mail", async () => {
    const { id, outcome } = await uploadAndProcess("produtos março.csv", productCsv([2, 3, 5, 6]), {
      user: bronze,
      worker,
    });
    expect(outcome).toMatchObject({ kind: "done", status: 0, okRows: 2, nokRows: 4 });

    const [notice, ...others] = await noticesOf(bronze);
    expect(others).toHaveLength(0);
    expect(notice.title).toBe(`Envio concluído com linhas recusadas: produtos março.csv`);
    expect(notice.kind).toBe("job.refused-rows");
    // "Abrir" opens the list on the page that holds this file, its row marked.
    expect(notice.link).toBe(`/captura/processando?arquivo=${id.toHexString()}`);
    const lines = notice.body.split("\n");
    expect(lines).toContain("Arquivo: produtos março.csv");
    expect(lines).toContain(`Resultado: ${noticeTexts.jobOutcomeRefusedRows}`);
    expect(lines).toContain("Linhas aceitas: 2. Linhas recusadas: 4.");
    // The first three refused rows in line order (the header is line 1): products 2, 3 and 5, not 6.
    const reasons = lines.filter((l) => l.startsWith("- Linha "));
    expect(reasons.map((r) => r.match(/^- Linha (\d+):/)?.[1])).toEqual(["3", "4", "6"]);
    expect(reasons[0]).toMatch(/hero/);
    expect(notice.body).not.toContain("Linha 7:");
    // The refused rows' CSV is a link of its own, on the page and in the e-mail.
    const nokPath = `/captura/processando/nok/${id.toHexString()}`;
    expect(notice.links).toEqual([{ label: "Baixar as linhas recusadas (CSV)", path: nokPath }]);

    // The e-mail: queued with the notice, delivered to the outbox by the mail task.
    const [queued] = await listQueuedMail(bronze);
    expect(queued).toMatchObject({ status: "pending", title: notice.title, body: notice.body });
    expect(await deliverPendingMail(new Date())).toMatchObject({ sent: expect.any(Number), failed: 0 });
    const mail = await readLatestMail(bronze);
    expect(mail?.subject).toBe(notice.title);
    expect(mail?.text).toContain("produtos março.csv");
    expect(mail?.text).toContain("Linhas aceitas: 2. Linhas recusadas: 4.");
    expect(mail?.text).toContain(
      `Abrir no portal: http://localhost:3000/captura/processando?arquivo=${id.toHexString()}`,
    );
    expect(mail?.text).toContain(`Baixar as linhas recusadas (CSV): http://localhost:3000${nokPath}`);

    // Those on call hear of it too (the uploader's name with it, every user's list as link); others do not.
    const [forOnCall] = await noticesOf(onCall);
    expect(forOnCall.title).toBe(notice.title);
    expect(forOnCall.body).toContain(`Enviado por: ${bronze}`);
    expect(forOnCall.link).toBe(`/jobs/executados?arquivo=${id.toHexString()}`);
    expect(await noticesOf(offCall)).toHaveLength(0);
    expect(await noticesOf(gold)).toHaveLength(0);
  });

  it("masks every CPF in an HR reason, as the refused-rows CSV does", async () => {
    const hr = TEMPLATE_CATALOG.find((t) => t.id === "hr_aux")!;
    const cells: Record<string, string> = { ...NON_EXAMPLE_CELL.hr_aux, cpf: "111.444.777-00" };
    const row = hr.columns.map((c) => (c.name in cells ? cells[c.name] : String(c.example)));
    const csv = [hr.columns.map((c) => c.name).join(";"), row.join(";")].join("\n");
    await grantPermission(await testDb.db(), gold, "USER GOLD");
    const { outcome } = await uploadAndProcess("rh.csv", csv, { user: gold, worker });
    expect(outcome).toMatchObject({ kind: "done", status: FILE_STATUS_REJECTED, nokRows: 1 });
    const [notice] = await noticesOf(gold);
    expect(notice.title).toBe("Envio recusado: rh.csv");
    expect(notice.body).toMatch(/- Linha 2: .*cpf/);
    expect(notice.body).toContain("***.444.777-**");
    expect(notice.body).not.toMatch(/111\.?444\.?777-?00/);
    const [forOnCall] = await noticesOf(onCall);
    expect(forOnCall.body).not.toMatch(/111\.?444\.?777-?00/);
  });
});

describe("a refused or failed job", () => {
  it("a file of no known layout: refused, with the job's message as the reason", async () => {
    const { file } = await uploadAndProcess("qualquer.csv", "nome;idade\nAna;30\n", { user: bronze, worker });
    const [notice] = await noticesOf(bronze);
    expect(notice.title).toBe("Envio recusado: qualquer.csv");
    expect(notice.body).toContain(`- ${file?.message}`);
    expect(notice.body).toContain("Linhas aceitas: 0. Linhas recusadas: 0.");
    expect(await noticesOf(onCall)).toHaveLength(1);
  });

  it("a file its uploader may not load: refused, with the refusal as the reason", async () => {
    const forecast = TEMPLATE_CATALOG.find((t) => t.id === "forecast")!;
    const cells: Record<string, string> = { ...NON_EXAMPLE_CELL.forecast };
    const row = forecast.columns.map((c) => (c.name in cells ? cells[c.name] : String(c.example)));
    const csv = [forecast.columns.map((c) => c.name).join(";"), row.join(";")].join("\n");
    const { file } = await uploadAndProcess("forecast.csv", csv, { user: bronze, worker });
    expect(file).toMatchObject({ status: 3, retryable: false });
    const [notice] = await noticesOf(bronze);
    expect(notice.title).toBe("Envio recusado: forecast.csv");
    expect(notice.body).toContain(`- ${file?.message}`);
  });

  it("a failure (the storage did not answer): told, and told again when its retry fails again", async () => {
    const { id } = await storeUpload("falha.csv", productCsv([]), { user: bronze });
    const broken = {
      ...worker,
      leaseMs: 60_000,
      openSource: () => Promise.reject(new Error("armazenamento indisponível")),
    };
    expect(await processNextJob(broken)).toMatchObject({ kind: "done", status: 3 });
    const [notice] = await noticesOf(bronze);
    expect(notice.title).toBe("Envio falhou: falha.csv");
    expect(notice.body).toContain("armazenamento indisponível");

    expect(await retryJob(id, { email: bronze, type: "USER BRONZE" })).toEqual({ ok: true });
    expect(await processNextJob(broken)).toMatchObject({ kind: "done", status: 3 });
    expect(await noticesOf(bronze)).toHaveLength(2);
    expect(await noticesOf(onCall)).toHaveLength(2);
  });
});

describe("a retry by someone else than the uploader", () => {
  const broken = {
    ...worker,
    leaseMs: 60_000,
    openSource: () => Promise.reject(new Error("armazenamento indisponível")),
  };
  const failed = async (name: string, user: string) => {
    const { id } = await storeUpload(name, productCsv([]), { user });
    expect(await processNextJob(broken)).toMatchObject({ kind: "done", status: 3 });
    return id;
  };
  // Only this test's jobs: the earlier tests' failures would join the batch.
  beforeEach(async () => {
    await (await testDb.db()).collection(FILES).deleteMany({});
  });

  it("one job re-run by an admin that fails again: its uploader hears nothing, the admin is told by its own e-mail", async () => {
    const id = await failed("um-so.csv", gold);
    await clearNotices();
    expect(await retryJob(id, { email: offCall, type: "SYSTEM ADMIN" })).toEqual({ ok: true });
    expect(await processNextJob(broken)).toMatchObject({ kind: "done", status: 3 });
    expect(await noticesOf(gold)).toHaveLength(0);
    expect(await noticesOf(onCall)).toHaveLength(0);
    const [told] = await noticesOf(offCall);
    expect(told.title).toBe("Envio falhou: um-so.csv");
    expect(told.body).toContain(`Enviado por: ${gold}`);
    const mails = await mailsTo(offCall);
    expect(mails.map((m) => m.subject)).toEqual(["Envio falhou: um-so.csv"]);
    expect(await mailsTo(gold)).toHaveLength(0);
  });

  it("a single retry of a job an earlier batch held is told as a single retry, not as that batch", async () => {
    const id = await failed("de-novo.csv", gold);
    await retryFailedJobs({}, { email: offCall, type: "SYSTEM ADMIN" });
    expect(await processNextJob(broken)).toMatchObject({ kind: "done", status: 3 });
    await clearNotices();
    expect(await retryJob(id, { email: offCall, type: "SYSTEM ADMIN" })).toEqual({ ok: true });
    expect(await processNextJob(broken)).toMatchObject({ kind: "done", status: 3 });
    expect((await noticesOf(offCall)).map((n) => n.title)).toEqual(["Envio falhou: de-novo.csv"]);
    expect((await mailsTo(offCall)).map((m) => m.subject)).toEqual(["Envio falhou: de-novo.csv"]);
  });
});

describe("Tentar novamente todos: one summary to each person concerned, no notice per file", () => {
  /** A worker whose storage answers only for the files named (the others fail again). */
  const loading = (...names: string[]) => ({
    ...worker,
    leaseMs: 60_000,
    openSource: (claim: JobClaim) =>
      names.includes(claim.originalName)
        ? openReadStream(claim.bucket, claim.originalFile)
        : Promise.reject(new Error("armazenamento indisponível")),
  });
  const failed = async (name: string, user: string) => {
    const { id } = await storeUpload(name, productCsv([]), { user });
    expect(await processNextJob(loading())).toMatchObject({ kind: "done", status: 3 });
    return id;
  };
  beforeEach(async () => {
    await (await testDb.db()).collection(FILES).deleteMany({});
  });
  const everyone = () => [bronze, gold, onCall, offCall];
  const lines = (body: string) => body.split("\n");

  it("an admin's batch: the admin gets one summary of every file, an owner one of theirs when one now loads", async () => {
    await failed("lote-1.csv", bronze);
    await failed("lote-2.csv", gold);
    await failed("lote-3.csv", bronze);
    await clearNotices();
    const { batch, retried } = await retryFailedJobs({}, { email: offCall, type: "SYSTEM ADMIN" });
    expect(retried).toBe(3);
    const run = loading("lote-1.csv");
    expect(await processNextJob(run)).toMatchObject({ kind: "done" });
    expect(await processNextJob(run)).toMatchObject({ kind: "done" });
    // Nobody is told of a file while its batch runs.
    for (const email of everyone()) expect(await noticesOf(email)).toHaveLength(0);
    expect(await processNextJob(run)).toMatchObject({ kind: "done" });
    expect(await processNextJob(run)).toBeNull();

    const [summary, ...more] = await noticesOf(offCall);
    expect(more).toHaveLength(0);
    expect(summary).toMatchObject({
      kind: "job.retryBatch",
      title: "Tentar novamente todos: 3 arquivos reprocessados",
      link: `/jobs/executados?lote=${batch}`,
    });
    expect(lines(summary.body)[0]).toBe("Reprocessados: 3. Concluídos: 1. Falharam novamente: 2.");
    expect(lines(summary.body).slice(1).sort()).toEqual([
      `- lote-1.csv: Concluído sem erros (enviado por ${bronze})`,
      `- lote-2.csv: Falhou (enviado por ${gold})`,
      `- lote-3.csv: Falhou (enviado por ${bronze})`,
    ]);

    // Bronze: one of their files now loads, so one summary of their files, naming who re-ran them.
    const [forBronze, ...moreForBronze] = await noticesOf(bronze);
    expect(moreForBronze).toHaveLength(0);
    expect(forBronze).toMatchObject({
      kind: "job.retryBatch",
      title: `Tentar novamente todos, por ${offCall}: 2 arquivos reprocessados`,
      link: "/captura/processando",
    });
    expect(lines(forBronze.body)).toEqual([
      `Reprocessado por: ${offCall}`,
      "Reprocessados: 2. Concluídos: 1. Falharam novamente: 1.",
      "- lote-1.csv: Concluído sem erros",
      "- lote-3.csv: Falhou",
    ]);
    // Gold's only file failed again, as they were told before: nothing new for them, nor for those on call.
    expect(await noticesOf(gold)).toHaveLength(0);
    expect(await noticesOf(onCall)).toHaveLength(0);

    // The outbox: one e-mail each, the summary.
    const adminMails = await mailsTo(offCall);
    expect(adminMails.map((m) => m.subject)).toEqual([summary.title]);
    for (const name of ["lote-1.csv", "lote-2.csv", "lote-3.csv"]) expect(adminMails[0].text).toContain(name);
    expect(adminMails[0].text).toContain(`Abrir no portal: http://localhost:3000/jobs/executados?lote=${batch}`);
    expect((await mailsTo(bronze)).map((m) => m.subject)).toEqual([forBronze.title]);
    expect(await mailsTo(gold)).toHaveLength(0);
    expect(await mailsTo(onCall)).toHaveLength(0);
  });

  it("an uploader's own batch: one summary for them, and one for those on call, not an e-mail per file", async () => {
    await failed("meu-1.csv", bronze);
    await failed("meu-2.csv", bronze);
    await clearNotices();
    const { batch } = await retryFailedJobs({ user: bronze }, { email: bronze, type: "USER BRONZE" });
    const run = loading();
    while (await processNextJob(run));

    const told = await noticesOf(bronze);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      title: "Tentar novamente todos: 2 arquivos reprocessados",
      link: `/captura/processando?lote=${batch}`,
    });
    expect(lines(told[0].body)).toEqual([
      "Reprocessados: 2. Concluídos: 0. Falharam novamente: 2.",
      "- meu-1.csv: Falhou",
      "- meu-2.csv: Falhou",
    ]);
    expect((await mailsTo(bronze)).map((m) => m.subject)).toEqual([told[0].title]);

    // Those on call hear of an uploader's own failures, as of a single retry's, once for the batch.
    const [forOnCall, ...moreOnCall] = await noticesOf(onCall);
    expect(moreOnCall).toHaveLength(0);
    expect(forOnCall).toMatchObject({
      title: `Tentar novamente todos, por ${bronze}: 2 arquivos reprocessados`,
      link: `/jobs/executados?lote=${batch}`,
    });
    expect(lines(forOnCall.body)).toEqual([
      "Reprocessados: 2. Concluídos: 0. Falharam novamente: 2.",
      `- meu-1.csv: Falhou (enviado por ${bronze})`,
      `- meu-2.csv: Falhou (enviado por ${bronze})`,
    ]);
    expect((await mailsTo(onCall)).map((m) => m.subject)).toEqual([forOnCall.title]);
    expect(await noticesOf(offCall)).toHaveLength(0);
  });

  it("an admin's batch holding their own file: only their summary for them; those on call hear of that file", async () => {
    await failed("de-outro.csv", gold);
    await failed("do-admin.csv", offCall);
    await clearNotices();
    await retryFailedJobs({}, { email: offCall, type: "SYSTEM ADMIN" });
    const run = loading();
    while (await processNextJob(run));

    const told = await noticesOf(offCall);
    expect(told.map((n) => n.title)).toEqual(["Tentar novamente todos: 2 arquivos reprocessados"]);
    expect(lines(told[0].body).slice(1)).toEqual([
      `- de-outro.csv: Falhou (enviado por ${gold})`,
      "- do-admin.csv: Falhou",
    ]);
    expect((await mailsTo(offCall)).map((m) => m.subject)).toEqual([told[0].title]);
    const [forOnCall, ...moreOnCall] = await noticesOf(onCall);
    expect(moreOnCall).toHaveLength(0);
    expect(lines(forOnCall.body)).toEqual([
      "Reprocessados: 1. Concluídos: 0. Falharam novamente: 1.",
      `- do-admin.csv: Falhou (enviado por ${offCall})`,
    ]);
    expect(await noticesOf(gold)).toHaveLength(0);
    expect(await mailsTo(gold)).toHaveLength(0);
  });

  it("a long batch lists its first files and says how many more", async () => {
    const names = Array.from({ length: 33 }, (_, i) => `muitos-${String(i + 1).padStart(2, "0")}.csv`);
    for (const name of names) await failed(name, bronze);
    await clearNotices();
    await retryFailedJobs({ user: bronze }, { email: bronze, type: "USER BRONZE" });
    const run = loading();
    while (await processNextJob(run));
    const [summary, ...more] = await noticesOf(bronze);
    expect(more).toHaveLength(0);
    const body = lines(summary.body);
    expect(body.filter((l) => l.startsWith("- muitos-"))).toHaveLength(30);
    expect(body.at(-1)).toBe("- e mais 3 arquivos");
    expect(await mailsTo(bronze)).toHaveLength(1);
  }, 60_000);
});

describe("a job without errors", () => {
  it("tells nobody unless its uploader asked; then only the uploader", async () => {
    await uploadAndProcess("ok-1.csv", productCsv([]), { user: bronze, worker });
    expect(await noticesOf(bronze)).toHaveLength(0);

    await savePreferences(bronze, { jobSuccessNotices: true });
    await uploadAndProcess("ok-2.csv", productCsv([]), { user: bronze, worker });
    const [notice] = await noticesOf(bronze);
    expect(notice.title).toBe("Envio concluído sem erros: ok-2.csv");
    expect(notice.body).toContain("Linhas aceitas: 6. Linhas recusadas: 0.");
    expect(notice.body).not.toContain("Primeiros motivos");
    expect(await noticesOf(onCall)).toHaveLength(0);
    await savePreferences(bronze, { jobSuccessNotices: false });
  });
});

describe("those on call", () => {
  it("an on-call admin's own failure is told once; an admin no longer SYSTEM ADMIN is not told", async () => {
    await uploadAndProcess("do-admin.csv", "a;b\n1;2\n", { user: onCall, grant: null, worker });
    expect(await noticesOf(onCall)).toHaveLength(1);

    const demoted = await makeUser("SYSTEM ADMIN");
    await savePreferences(demoted, { onCallFailures: true });
    await (await testDb.db())
      .collection(USER_PERMISSIONS)
      .updateOne({ user: demoted }, { $set: { type: "USER GOLD" } });
    await uploadAndProcess("outro.csv", "a;b\n1;2\n", { user: bronze, worker });
    expect(await noticesOf(demoted)).toHaveLength(0);
    expect(await noticesOf(onCall)).toHaveLength(2);
  });
});

describe("one notice per ending, never in the job's way", () => {
  it("the same ending handled twice, or by a worker that lost the job, tells once", async () => {
    const { id } = await storeUpload("duas-vezes.csv", "a;b\n1;2\n", { user: bronze });
    const lost = await claimNextJob({ agent: "lost-worker", leaseMs: 1, only: id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const claim = (await claimNextJob({ agent: "owner-worker", leaseMs: 60_000, only: id }))!;
    const outcome = await ingestClaimedFile(claim, { leaseMs: 60_000, progressIntervalMs: 20 });
    expect(outcome).toMatchObject({ kind: "done", status: 2 });
    await notifyJobEnded(claim, outcome);
    await notifyJobEnded(claim, outcome);
    // The worker whose lease ran out believes it ended the job too.
    await notifyJobEnded(lost!, { kind: "done", okRows: 0, nokRows: 0 });
    expect(await noticesOf(bronze)).toHaveLength(1);
    expect(await noticesOf(onCall)).toHaveLength(1);
  });

  it("a job whose notice fails still ends normally, and the failure is logged", async () => {
    failNotify.on = true;
    const log = vi.fn();
    const { id } = await storeUpload("sem-aviso.csv", productCsv([2]), { user: bronze });
    const outcome = await processNextJob({ ...worker, leaseMs: 60_000, log });
    expect(outcome).toMatchObject({ kind: "done", status: 0, okRows: 5, nokRows: 1 });
    expect(await findFileById(id)).toMatchObject({ status: 0, progress: 100 });
    expect(log).toHaveBeenCalledWith("error", "job notice failed", expect.objectContaining({ fileId: String(id) }));
    expect(await noticesOf(bronze)).toHaveLength(0);
  });
});

describe("/user/settings", () => {
  const cookieOf = async (email: string) => ((await startSession(email)).headers.get("Set-Cookie") ?? "").split(";")[0];

  it("every user may ask for success notices; the on-call switch is a SYSTEM ADMIN's alone", async () => {
    const user = await makeUser("USER GOLD");
    const admin = await makeUser("SYSTEM ADMIN");
    const [userCookie, adminCookie] = await Promise.all([cookieOf(user), cookieOf(admin)]);

    const page = dataAnswer<{ canChooseOnCall: boolean }>(
      await settingsRoute.loader(getArgs("/user/settings", userCookie)),
    );
    expect(page.body).toMatchObject({ jobSuccessNotices: false, onCallFailures: false, canChooseOnCall: false });

    const saved = await responseOf(
      Promise.resolve(
        settingsRoute.action(
          postArgs("/user/settings", { intent: "save", emailNotices: "on", jobSuccessNotices: "on" }, userCookie),
        ),
      ),
    );
    expect(saved.status).toBe(302);
    expect(await getPreferences(user)).toMatchObject({ jobSuccessNotices: true, onCallFailures: false });

    // Not an admin: on call is refused and nothing of the form is saved.
    const refused = dataAnswer<{ error: string }>(
      await settingsRoute.action(
        postArgs("/user/settings", { intent: "save", emailNotices: "on", onCallFailures: "on" }, userCookie),
      ),
    );
    expect(refused).toEqual({ status: 400, body: { error: noticeTexts.onCallNotAllowed } });
    expect(await getPreferences(user)).toMatchObject({ jobSuccessNotices: true, onCallFailures: false });

    const adminPage = dataAnswer(await settingsRoute.loader(getArgs("/user/settings", adminCookie)));
    expect(adminPage.body).toMatchObject({ onCallFailures: false, canChooseOnCall: true });
    await settingsRoute.action(postArgs("/user/settings", { intent: "save", onCallFailures: "on" }, adminCookie));
    expect(await getPreferences(admin)).toMatchObject({ onCallFailures: true, emailNotices: false });
    const after = dataAnswer(await settingsRoute.loader(getArgs("/user/settings", adminCookie)));
    expect(after.body).toMatchObject({ onCallFailures: true, canChooseOnCall: true });
  });
});
