import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { MAX_VIEWS_PER_USER, SAVED_VIEWS } from "~/models/saved-views.server";
import type { PermissionType } from "~/models/users.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { readToastFromResponse } from "~/shared/toast.server";
import { savedViewTexts } from "./texts";
import { checkViewAddress } from "./view-address";
import { loadViewsPage, redirectToDefaultView, viewAddressOf, viewsAction } from "./views.server";

/** Saved views: saved from a screen's address, listed with a share link, one default per screen, deletion audited. */

const testDb = useTestDatabase();
beforeAll(async () => {
  // The unique name per user is the index's to keep.
  await applyIndexes(await testDb.db());
});
let n = 0;
const userOf = (type: PermissionType): AuthenticatedUser => {
  const email = `views${++n}@example.com`;
  return { email, name: email, type, sessionId: "s" };
};
const post = (user: AuthenticatedUser, fields: Record<string, string>) =>
  viewsAction(
    user,
    new Request("http://localhost:3000/user/visoes", { method: "POST", body: new URLSearchParams(fields) }),
  );
const save = (user: AuthenticatedUser, name: string, path: string) =>
  post(user, { intent: "save", name, path }) as Promise<Response>;

describe("the address a view keeps", () => {
  it("takes only a portal path of a screen that keeps views", () => {
    expect(viewAddressOf("/ij/plan_edit?chanel=WHOLESALES&page=2")).toEqual({
      screen: "/ij/plan_edit",
      query: "?chanel=WHOLESALES&page=2",
    });
    expect(viewAddressOf("/ij/rh_edit/Loja%20Centro?mes_inicio=2026-01")).toMatchObject({
      screen: "/ij/rh_edit/Loja%20Centro",
    });
    for (const bad of [
      "/user/config",
      "//evil.example/ij/plan_edit",
      "https://evil.example/ij/plan_edit",
      "ij/plan_edit",
      `/ij/plan_edit?${"x".repeat(2_100)}`,
    ])
      expect(viewAddressOf(bad)).toBeNull();
  });

  const GRID = "/ij/report_preview_edit_schneider/RF2%202026/CC1001%20-%20Marketing";
  const VERSION = "0123456789abcdef01234567";

  it("keeps a screen's own parameters as the address has them, and leaves out the others", () => {
    // The review's filter: its choices; "Gerar revisão" (intent) is an act, not a choice.
    expect(
      viewAddressOf("/ij/report_create_schneider?rf=RF2+2026&cost_center=CC1001%20-%20Marketing&intent=generate"),
    ).toEqual({ screen: "/ij/report_create_schneider", query: "?rf=RF2+2026&cost_center=CC1001%20-%20Marketing" });
    // The grid: its difference columns, the version compared and the cell opened; a cycle action's answer and the
    // cell's history (a dialog) left out.
    const cell = "celula=4101001%20-%20Sal%C3%A1rios:2026-03";
    expect(viewAddressOf(`${GRID}?ciclo=submit&cols=rf&cols=actual&versao=${VERSION}&${cell}&historico=1`)).toEqual({
      screen: GRID,
      query: `?cols=rf&cols=actual&versao=${VERSION}&${cell}`,
    });
    // The consolidated view: its comparison, columns and the levels and rows open.
    const consolidated =
      "?rf=RF2%202026&vs=anterior&cols=total,mes&aprovados=1&nivel=2&abrir=a%7CComercial&fechar=c%7CCC1";
    expect(viewAddressOf(`/ij/forecast_consolidado${consolidated}`)).toEqual({
      screen: "/ij/forecast_consolidado",
      query: consolidated,
    });
    // Nothing of the screen's own: no query.
    expect(viewAddressOf("/jobs/executados?lote=abc&__proto__=1")).toEqual({ screen: "/jobs/executados", query: "" });
  });

  it("refuses a grid path whose RF or cost centre is not one, and a value beyond its parameter's bound", () => {
    for (const bad of [
      "/ij/report_preview_edit_schneider/RF9%202026/CC1001",
      "/ij/report_preview_edit_schneider/RF2%202026",
      "/ij/report_preview_edit_schneider/RF2%202026/CC1001/extra",
      "/ij/report_preview_edit_schneider/RF2%202026/%ZZ",
      "/ij/report_preview_edit_schneider/RF2%202026/CC%00",
      `/ij/report_preview_edit_schneider/RF2%202026/${"C".repeat(201)}`,
      "/ij/report_preview_edit_schneider/RF2%202026/%2e%2e",
    ])
      expect(checkViewAddress(bad), bad).toEqual({ ok: false, error: savedViewTexts.errors.screen, back: null });
    for (const [path, param] of [
      ["/ij/report_create_schneider?rf=RF9%202026", "rf"],
      [`/ij/report_create_schneider?cost_center=${"x".repeat(201)}`, "cost_center"],
      ["/ij/report_create_schneider?rf=RF1%202026&rf=RF2%202026", "rf"],
      [`${GRID}?cols=rf&versao=${VERSION}x`, "versao"],
      [`${GRID}?celula=4101001:2026-3`, "celula"],
      ["/ij/forecast_consolidado?nivel=9", "nivel"],
      ["/jobs/executados?page=%ZZ", "page"],
    ])
      expect(checkViewAddress(path), path).toEqual({
        ok: false,
        error: savedViewTexts.errors.param(param),
        back: path,
      });
  });
});

describe("saving, listing, the default and deleting", () => {
  it("saves a screen's address under a name and answers back to the screen", async () => {
    const user = userOf("USER GOLD");
    const answer = await save(user, "  Atacado  ", "/ij/plan_edit?chanel=WHOLESALES");
    expect(answer.headers.get("Location")).toBe("/ij/plan_edit?chanel=WHOLESALES");
    expect((await readToastFromResponse(answer))?.description).toBe(savedViewTexts.saved("Atacado"));
    const { rows } = await loadViewsPage(user, "https://portal.example");
    expect(rows).toEqual([
      expect.objectContaining({
        name: "Atacado",
        screen: savedViewTexts.screens.planning,
        href: "/ij/plan_edit?chanel=WHOLESALES",
        shareUrl: "https://portal.example/ij/plan_edit?chanel=WHOLESALES",
        canOpen: true,
      }),
    ]);
  });

  it("refuses another screen, a blank name, a name taken and the 51st view, storing nothing", async () => {
    const user = userOf("USER GOLD");
    const other = await save(user, "Admin", "/user/config");
    expect((await readToastFromResponse(other))?.description).toBe(savedViewTexts.errors.screen);
    const blank = await save(user, "  ", "/ij/plan_edit");
    expect((await readToastFromResponse(blank))?.description).toBe(savedViewTexts.errors.name);
    await save(user, "A", "/ij/plan_edit");
    const taken = await save(user, "A", "/jobs/executados");
    expect((await readToastFromResponse(taken))?.description).toBe(savedViewTexts.errors.taken("A"));
    const db = await testDb.db();
    await db.collection(SAVED_VIEWS).insertMany(
      Array.from({ length: MAX_VIEWS_PER_USER - 1 }, (_, i) => ({
        user: user.email,
        screen: "/ij/plan_edit",
        query: "",
        name: `v${i}`,
        isDefault: false,
        createdAt: new Date(),
      })),
    );
    const full = await save(user, "one more", "/ij/plan_edit");
    expect((await readToastFromResponse(full))?.description).toBe(savedViewTexts.errors.limit(MAX_VIEWS_PER_USER));
    expect(await db.collection(SAVED_VIEWS).countDocuments({ user: user.email })).toBe(MAX_VIEWS_PER_USER);
  });

  it("opens a screen's plain address on its default view, one default per screen", async () => {
    const user = userOf("SYSTEM ADMIN");
    await save(user, "Falhas", "/jobs/executados?page=2");
    await save(user, "Tamanho 40", "/jobs/executados?pageSize=40");
    const [first, second] = (await loadViewsPage(user, "")).rows;
    await post(user, { intent: "default", id: first.id });
    await post(user, { intent: "default", id: second.id });
    const rows = (await loadViewsPage(user, "")).rows;
    expect(rows.filter((r) => r.isDefault).map((r) => r.id)).toEqual([second.id]);
    const plain = await redirectToDefaultView(user, new Request("http://localhost:3000/jobs/executados")).catch(
      (r) => r,
    );
    expect(plain).toBeInstanceOf(Response);
    expect((plain as Response).headers.get("Location")).toBe(second.href);
    // An address with a query shows what it says; another user has no default.
    await expect(
      redirectToDefaultView(user, new Request("http://localhost:3000/jobs/executados?page=1")),
    ).resolves.toBeUndefined();
    await expect(
      redirectToDefaultView(userOf("SYSTEM ADMIN"), new Request("http://localhost:3000/jobs/executados")),
    ).resolves.toBeUndefined();
    await post(user, { intent: "undefault", id: second.id });
    await expect(
      redirectToDefaultView(user, new Request("http://localhost:3000/jobs/executados")),
    ).resolves.toBeUndefined();
  });

  it("deletes only the user's own views, as an audit entry", async () => {
    const owner = userOf("USER GOLD");
    await save(owner, "Minha", "/ij/forecast_consolidado?rf=RF3%202026");
    const [view] = (await loadViewsPage(owner, "")).rows;
    const intruder = await post(userOf("SYSTEM ADMIN"), { intent: "delete", id: view.id });
    expect((intruder as unknown as { init: { status: number } }).init.status).toBe(404);
    await post(owner, { intent: "delete", id: view.id });
    expect((await loadViewsPage(owner, "")).rows).toEqual([]);
    const entry = await (await testDb.db())
      .collection(AUDIT_LOG)
      .findOne({ event: "viewDeleted", "actor.email": owner.email });
    expect(entry?.object).toMatchObject({ id: "/ij/forecast_consolidado", label: "Minha" });
  });

  it("saves the filter's choices and the grid's columns; refuses a bad value back on the screen, storing nothing", async () => {
    const user = userOf("USER GOLD");
    const filter = "/ij/report_create_schneider?rf=RF2%202026&cost_center=CC1001%20-%20Marketing";
    expect((await save(user, "Filtro", filter)).headers.get("Location")).toBe(filter);
    const grid = "/ij/report_preview_edit_schneider/RF2%202026/CC1001%20-%20Marketing";
    const answer = await save(user, "Grade", `${grid}?cols=rf&ciclo=approve`);
    expect(answer.headers.get("Location")).toBe(`${grid}?cols=rf`);
    const bad = `${grid}?cols=rf&celula=13`;
    const refused = await save(user, "Ruim", bad);
    expect(refused.headers.get("Location")).toBe(bad);
    expect((await readToastFromResponse(refused))?.description).toBe(savedViewTexts.errors.param("celula"));
    const { rows } = await loadViewsPage(user, "");
    expect(rows.map((r) => [r.name, r.screen, r.href, r.canDefault])).toEqual([
      ["Filtro", savedViewTexts.screens.forecastFilter, filter, true],
      [
        "Grade",
        savedViewTexts.screenOf(savedViewTexts.screens.review, ["RF2 2026", "CC1001 - Marketing"]),
        `${grid}?cols=rf`,
        false,
      ],
    ]);
    // The grid has no menu entry to open a default: one of its views is never the default.
    const grade = rows[1];
    const notDefault = await post(user, { intent: "default", id: grade.id });
    expect((notDefault as unknown as { init: { status: number } }).init.status).toBe(400);
    expect((await loadViewsPage(user, "")).rows[1].isDefault).toBe(false);
  });

  it("opens a stored view only at its address checked again, whatever the record holds", async () => {
    const user = userOf("USER GOLD");
    const record = (name: string, screen: string, query: string) => ({
      user: user.email,
      screen,
      query,
      name,
      isDefault: true,
      createdAt: new Date(),
    });
    await (await testDb.db())
      .collection(SAVED_VIEWS)
      .insertMany([
        record("Antiga", "/ij/report_create_schneider", "?rf=RF2%202026&intent=generate"),
        record("Fora", "//evil.example/ij/plan_edit", ""),
        record("Ruim", "/ij/plan_edit", "?page=%ZZ"),
      ]);
    const rows = (await loadViewsPage(user, "")).rows.map((r) => [r.name, r.href, r.canOpen]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ["Antiga", "/ij/report_create_schneider?rf=RF2%202026", true],
        ["Fora", "//evil.example/ij/plan_edit", false],
        ["Ruim", "/ij/plan_edit?page=%ZZ", false],
      ]),
    );
    const opened = await redirectToDefaultView(
      user,
      new Request("http://localhost:3000/ij/report_create_schneider"),
    ).catch((r) => r);
    expect((opened as Response).headers.get("Location")).toBe("/ij/report_create_schneider?rf=RF2%202026");
    await expect(
      redirectToDefaultView(user, new Request("http://localhost:3000/ij/plan_edit")),
    ).resolves.toBeUndefined();
  });

  it("lists a shared or kept view of a screen the user may not open without its link", async () => {
    const bronze = userOf("USER BRONZE");
    await save(bronze, "Planejamento", "/ij/plan_edit?chanel=RETAIL");
    const [row] = (await loadViewsPage(bronze, "")).rows;
    expect(row.canOpen).toBe(false);
  });
});
