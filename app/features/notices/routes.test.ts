import { beforeAll, describe, expect, it } from "vitest";
import { dataAnswer, responseOf } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { formPost, getArgs, pageGet, postArgs, routeArgs } from "#test/requests";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { noticeTexts } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { listNotices, listQueuedMail, notify, unreadCount } from "~/models/notices.server";
import { getPreferences } from "~/models/user-preferences.server";
import { startSession } from "~/platform/auth/session.server";
import { loader as rootLoader } from "~/root";
import * as noticesRoute from "~/routes/user.notices";
import * as settingsRoute from "~/routes/user.settings";
import type { NoticesPageData } from "./pages.server";

/**
 * /user/notices and /user/settings as their loaders and actions answer a signed-in user (real sessions): only the
 * user's own notices, open → its portal link, forged ids and links refused, mark all read, the e-mail switch, and
 * the header's unread count in the root loader.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const makeUser = userMaker({ prefix: "aviso", name: "Aviso", passwordHash: () => "scrypt$unused" });

let ana: string;
let bia: string;
let anaCookie: string;
let biaCookie: string;

async function cookieOf(email: string): Promise<string> {
  const { headers } = await startSession(email);
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
  ana = await makeUser("USER BRONZE");
  bia = await makeUser("USER GOLD");
  [anaCookie, biaCookie] = await Promise.all([cookieOf(ana), cookieOf(bia)]);
});

const loadNotices = async (cookie: string, query = "") =>
  dataAnswer<NoticesPageData>(await noticesRoute.loader(getArgs(`/user/notices${query}`, cookie)));
const postNotices = (cookie: string, fields: Record<string, string>, query = "") =>
  responseOf(Promise.resolve(noticesRoute.action(postArgs(`/user/notices${query}`, fields, cookie))));

describe("/user/notices", () => {
  it("sends a visitor without a session to sign in", async () => {
    const response = await responseOf(noticesRoute.loader(routeArgs(pageGet("/user/notices"))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/\?/);
  });

  it("lists only the user's own notices, unread first highlighted, and the header counts them", async () => {
    await notify([
      { to: ana, kind: "t", title: "Para Ana", body: "Olá Ana", link: "/captura/manual" },
      { to: bia, kind: "t", title: "Para Bia", body: "Olá Bia" },
    ]);
    const page = await loadNotices(anaCookie);
    expect(page.status).toBe(200);
    expect(page.body.rows.map((r) => r.title)).toEqual(["Para Ana"]);
    expect(page.body.rows[0]).toMatchObject({ unread: true, link: "/captura/manual" });
    expect(page.body.unread).toBe(1);

    const root = dataAnswer<{ unreadNotices: number; signedIn: boolean }>(
      await rootLoader(getArgs("/captura/manual", anaCookie)),
    );
    expect(root.body).toMatchObject({ signedIn: true, unreadNotices: 1 });
    const signedOut = dataAnswer<{ unreadNotices: number }>(await rootLoader(routeArgs(pageGet("/"))));
    expect(signedOut.body.unreadNotices).toBe(0);
  });

  it("opens a notice: marks it read and goes to its portal link", async () => {
    const [notice] = (await listNotices(ana, 1)).rows;
    const response = await postNotices(anaCookie, { intent: "open", id: notice.id });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/captura/manual");
    expect(await unreadCount(ana)).toBe(0);
  });

  it("refuses another user's notice: 404, nothing marked", async () => {
    const [biasNotice] = (await listNotices(bia, 1)).rows;
    for (const intent of ["open", "read"]) {
      const answer = dataAnswer<{ error: string }>(
        await noticesRoute.action(postArgs("/user/notices", { intent, id: biasNotice.id }, anaCookie)),
      );
      expect(answer).toEqual({ status: 404, body: { error: noticeTexts.noticeNotFound } });
    }
    expect(await unreadCount(bia)).toBe(1);
  });

  it("never leaves the portal: a forged link opens the notice list instead", async () => {
    await notify([{ to: ana, kind: "t", title: "Forjado", body: "x", link: "//evil.example/phish" }]);
    const page = await loadNotices(anaCookie, "?page=1");
    const forged = page.body.rows.find((r) => r.title === "Forjado");
    expect(forged?.link).toBeNull();
    const response = await postNotices(anaCookie, { intent: "open", id: forged!.id });
    expect(response.headers.get("Location")).toBe("/user/notices");
  });

  it("shows a notice's further links, portal paths only, at most three", async () => {
    await notify([
      {
        to: ana,
        kind: "t",
        title: "Com links",
        body: "x",
        links: [
          { label: "Linhas recusadas", path: "/captura/processando/nok/abc" },
          { label: "Fora", path: "//evil.example/phish" },
          { label: "", path: "/sem-rotulo" },
          { label: "Dois", path: "/a" },
          { label: "Três", path: "/b" },
          { label: "Quatro", path: "/c" },
        ],
      },
    ]);
    const page = await loadNotices(anaCookie);
    expect(page.body.rows.find((r) => r.title === "Com links")?.links).toEqual([
      { label: "Linhas recusadas", path: "/captura/processando/nok/abc" },
      { label: "Dois", path: "/a" },
      { label: "Três", path: "/b" },
    ]);
    expect(page.body.rows.find((r) => r.title === "Para Ana")?.links).toEqual([]);
  });

  it("answers bad input with a message in Portuguese and changes nothing", async () => {
    await notify([{ to: ana, kind: "t", title: "Intacto", body: "x" }]);
    const before = await unreadCount(ana);
    const cases: Array<Record<string, string> | URLSearchParams> = [
      { intent: "open", id: "not-an-id" },
      { intent: "delete" },
      { intent: "read", id: { $ne: null } as unknown as string },
      new URLSearchParams([
        ["intent", "readAll"],
        ["intent", "readAll"],
      ]),
    ];
    for (const fields of cases) {
      const request = formPost("/user/notices", {}, { cookie: anaCookie });
      const body = fields instanceof URLSearchParams ? fields : new URLSearchParams(fields);
      const answer = dataAnswer<{ error: string }>(
        await noticesRoute.action(
          routeArgs(new Request(request.url, { method: "POST", headers: request.headers, body })),
        ),
      );
      expect(answer).toEqual({ status: 400, body: { error: noticeTexts.invalidRequest } });
    }
    expect(await unreadCount(ana)).toBe(before);
  });

  it("marks all the user's notices read, and no one else's", async () => {
    const response = await postNotices(anaCookie, { intent: "readAll" }, "?page=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/user/notices");
    expect(await unreadCount(ana)).toBe(0);
    expect(await unreadCount(bia)).toBe(1);
  });

  it("refuses a form posted from another site", async () => {
    const request = formPost(
      "/user/notices",
      { intent: "readAll" },
      { cookie: biaCookie, origin: "https://evil.example" },
    );
    const response = await responseOf(Promise.resolve(noticesRoute.action(routeArgs(request))));
    expect(response.status).toBe(403);
    expect(await unreadCount(bia)).toBe(1);
  });
});

describe("/user/settings", () => {
  it("starts with e-mail notices on; switched off, notices are listed but no e-mail is queued", async () => {
    const first = dataAnswer<{ emailNotices: boolean }>(
      await settingsRoute.loader(getArgs("/user/settings", biaCookie)),
    );
    expect(first.body).toEqual({
      emailNotices: true,
      jobSuccessNotices: false,
      onCallFailures: false,
      canChooseOnCall: false,
    });

    // An unticked checkbox is not sent at all.
    const saved = await responseOf(
      Promise.resolve(settingsRoute.action(postArgs("/user/settings", { intent: "save" }, biaCookie))),
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/user/settings");
    expect((await getPreferences(bia)).emailNotices).toBe(false);
    // Only Bia's own preference changed.
    expect((await getPreferences(ana)).emailNotices).toBe(true);

    const queuedBefore = (await listQueuedMail(bia)).length;
    await notify([{ to: bia, kind: "t", title: "Só no portal", body: "x" }]);
    expect((await listNotices(bia, 1)).rows.map((r) => r.title)).toContain("Só no portal");
    expect(await listQueuedMail(bia)).toHaveLength(queuedBefore);

    await settingsRoute.action(postArgs("/user/settings", { intent: "save", emailNotices: "on" }, biaCookie));
    expect((await getPreferences(bia)).emailNotices).toBe(true);
  });

  it("answers a forged form with a message in Portuguese and saves nothing", async () => {
    const forged: Array<Record<string, string>> = [
      { intent: "save", emailNotices: "yes" },
      { intent: "save", emailNotices: "on", email: ana },
      { intent: "other" },
    ];
    for (const fields of forged) {
      const answer = dataAnswer<{ error: string }>(
        await settingsRoute.action(postArgs("/user/settings", fields, biaCookie)),
      );
      expect(answer).toEqual({ status: 400, body: { error: noticeTexts.invalidSettings } });
    }
    expect((await getPreferences(bia)).emailNotices).toBe(true);
    expect((await getPreferences(ana)).emailNotices).toBe(true);
  });
});
