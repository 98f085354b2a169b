import { describe, expect, it } from "vitest";
import type { FeatureFlag } from "~/config.server";
import { PERMISSION_TYPES, type PermissionType } from "~/models/users.server";
import {
  type AccessContext,
  ASSIGNABLE_TIERS,
  canAccessRoute,
  DEFAULT_HR_EDITOR_TYPES,
  type Features,
  ROUTE_ACCESS,
  type RouteId,
  routeRule,
  TIER_LABELS,
} from "./access";
import { buildNavigation, type DashboardSummary, FALLBACK_LANDING, landingFor } from "./navigation";

const allOn: Features = {
  dashboard: true,
  report: true,
  jobsExecuted: true,
  masterRepository: true,
  upload: true,
  planning: true,
  explorer: true,
  financialStatement: true,
  auxCurrentMonth: false,
  mailOutbox: true,
};
const off = (flag: FeatureFlag): Features => ({ ...allOn, [flag]: false });
const ctx = (features: Features = allOn): AccessContext => ({ features, hrEditorTypes: DEFAULT_HR_EDITOR_TYPES });

const SA = "SYSTEM ADMIN";
const UA = "USER ADMIN";
const EX = "USER EXPLORER";
const BR = "USER BRONZE";
const SI = "USER SILVER";
const GO = "USER GOLD";
const PE = "USER PERMISS";

/**
 * Every guarded route of both spec documents, by the route id of its module, written out here by hand (from
 * spec 000 §2 / 001 §2, §6 and the decisions recorded for the silent cases), NOT derived from the table under test.
 */
const EXPECTED: Array<[route: RouteId, types: PermissionType[], flag: FeatureFlag | null]> = [
  ["routes/ij.painel.$id", [SA, GO], "dashboard"],
  ["routes/ij.painel.$id.embed-url", [SA, GO], "dashboard"],
  ["routes/jobs.dashboard.$id", [SA, GO], "dashboard"],
  ["routes/jobs.dashboard.$id.embed-url", [SA, GO], "dashboard"],
  ["routes/jobs.executados", [SA, GO], "jobsExecuted"],
  ["routes/user.config", [UA], null],
  ["routes/user.permission", [SA, PE], null],
  ["routes/user.audit", [SA], null],
  ["routes/user.audit_.export", [SA], null],
  // The demo's e-mails (MAIL=outbox only), ours.
  ["routes/user.emails", [SA], "mailOutbox"],
  ["routes/captura.manual", [SA, BR, SI, GO], "upload"],
  ["routes/captura.manual_.modelo.$template", [SA, BR, SI, GO], "upload"],
  ["routes/captura.automacao", [SA, BR, SI, GO], "upload"],
  ["routes/captura.processando", [SA, BR, SI, GO], "upload"],
  ["routes/captura.processando_.nok.$id", [SA, BR, SI, GO], "upload"],
  ["routes/captura.processando_.corrigir.$id", [SA, BR, SI, GO], "upload"],
  ["routes/api.upload", [SA, BR, SI, GO], "upload"],
  ["routes/api.uploads.s3", [SA, BR, SI, GO], "upload"],
  ["routes/api.files.register", [SA, BR, SI, GO], "upload"],
  ["routes/repo.format", [SA, GO], "masterRepository"],
  ["routes/repo.master-data._index", [SA, GO], "masterRepository"],
  ["routes/repo.master-data.canal", [SA, GO], "masterRepository"],
  ["routes/repo.master-data.planejamento", [SA, GO], "masterRepository"],
  ["routes/repo.master-data.excel", [SA, GO], "masterRepository"],
  ["routes/repo.master-data.canal.excel", [SA, GO], "masterRepository"],
  ["routes/repo.master-data.planejamento.excel", [SA, GO], "masterRepository"],
  ["routes/ij.plan", [SA, GO], "planning"],
  ["routes/ij.plan_edit", [SA, GO], "planning"],
  ["routes/ij.plan_edit.excel", [SA, GO], "planning"],
  ["routes/ij.plan_edit_.comentarios", [SA, GO], "planning"],
  ["routes/ij.plan_edit_.distribuir", [SA, GO], "planning"],
  ["routes/ij.report", [SA, SI, GO], "report"],
  ["routes/ij.report_preview", [SA, SI, GO], "report"],
  ["routes/ij.report_create", [SA, SI, GO], "report"],
  ["routes/ij.report_save", [SA, SI, GO], "report"],
  ["routes/ij.report._index", [SA, SI, GO], "report"],
  ["routes/ij.report.$id.view", [SA, SI, GO], "report"],
  ["routes/ij.report.$id.file", [SA, SI, GO], "report"],
  ["routes/ij.report.reviews", [SA, SI, GO], "report"],
  ["routes/ij.fiscal", [SA, GO], "report"],
  ["routes/ij.preview_financial.$id.file", [GO], "financialStatement"],
  ["routes/ij.report_create_schneider", [SA, GO], "report"],
  ["routes/ij.report_preview_schneider", [SA, GO], "report"],
  ["routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat", [SA, GO], "report"],
  ["routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history", [SA, GO], "report"],
  ["routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel", [SA, GO], "report"],
  ["routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir", [SA, GO], "report"],
  ["routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.alteracoes", [SA, GO], "report"],
  ["routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios", [SA, GO], "report"],
  // The forecast cycle (docs/decisions.md "Forecast cycle"): the board for the reviewers (default SYSTEM ADMIN) and
  // SYSTEM ADMIN, the preparers' assignments for SYSTEM ADMIN.
  ["routes/ij.forecast_status", [SA], "report"],
  ["routes/ij.forecast_status.excel", [SA], "report"],
  ["routes/ij.forecast_preparers", [SA], "report"],
  ["routes/ij.forecast_preparers.modelo", [SA], "report"],
  // "Meus centros de custo": whoever may prepare a cost centre (the review's saving types).
  ["routes/ij.forecast_meus_centros", [SA, GO], "report"],
  // The seasonality profiles: kept by the reviewers (default SYSTEM ADMIN) and SYSTEM ADMIN; a preparer only uses them.
  ["routes/ij.forecast_perfis_sazonalidade", [SA], "report"],
  // The consolidated forecast and its versions: the review's readers (each in their scope).
  ["routes/ij.forecast_consolidado", [SA, GO], "report"],
  ["routes/ij.forecast_consolidado.excel", [SA, GO], "report"],
  ["routes/ij.forecast_versoes", [SA, GO], "report"],
  ["routes/ij.explorer", [EX, SA, SI, GO], "explorer"],
  ["routes/ij.explorer_.$id", [EX, SA, SI, GO], "explorer"],
  ["routes/ij.rh", [SA, SI, GO], null],
  ["routes/ij.rh_edit.$filial", [SA, SI, GO], null],
  ["routes/ij.rh_edit.$filial.excel", [SA, SI, GO], null],
  ["routes/ij.rh_edit_.$filial.comentarios", [SA, SI, GO], null],
  ["routes/ij.demo_financial", [GO], "financialStatement"],
  ["routes/ij.preview_financial", [GO], "financialStatement"],
  ["routes/ij.cockpit", [SA, GO], "report"],
  ["routes/ij.cockpit_preview", [SA, GO], "report"],
];

const PUBLIC_ROUTES: RouteId[] = [
  "root",
  "routes/_index",
  "routes/recovery.$code",
  "routes/home",
  "routes/saml",
  "routes/saml.login",
  "routes/saml.metadata",
  "routes/logout",
  "routes/$",
];

describe("route rules: every guarded route × every type × each flag", () => {
  for (const [route, types, flag] of EXPECTED) {
    it(`${route}`, () => {
      for (const type of PERMISSION_TYPES) {
        expect(canAccessRoute(type, route, ctx()), `${type} on ${route}`).toBe(types.includes(type));
      }
      expect(canAccessRoute("", route, ctx())).toBe(false);
      expect(canAccessRoute(undefined, route, ctx())).toBe(false);
      for (const f of Object.keys(allOn) as FeatureFlag[]) {
        for (const type of types) {
          expect(canAccessRoute(type, route, ctx(off(f))), `${type} on ${route} with ${f} off`).toBe(f !== flag);
        }
      }
    });
  }

  it("lists every guarded route of the table here (a new rule needs its expectation)", () => {
    const guarded = (Object.keys(ROUTE_ACCESS) as RouteId[]).filter((id) => ROUTE_ACCESS[id].kind === "restricted");
    expect(guarded.sort()).toEqual(EXPECTED.map(([route]) => route).sort());
  });

  it("opens public routes to everyone and the layouts and splats to any signed-in type only", () => {
    for (const route of PUBLIC_ROUTES) {
      expect(routeRule(route).kind).toBe("public");
      expect(canAccessRoute(undefined, route, ctx())).toBe(true);
    }
    for (const route of ["routes/ij", "routes/ij.$", "routes/user.$", "routes/download.$token"] as RouteId[]) {
      expect(canAccessRoute(undefined, route, ctx())).toBe(false);
      expect(canAccessRoute("", route, ctx())).toBe(false);
      for (const type of PERMISSION_TYPES) expect(canAccessRoute(type, route, ctx())).toBe(true);
    }
  });

  it("HR: readers read, only the configured editor types write", () => {
    const route: RouteId = "routes/ij.rh_edit.$filial";
    expect(canAccessRoute(SI, route, ctx(), "write")).toBe(false);
    expect(canAccessRoute(GO, route, ctx(), "write")).toBe(true);
    expect(canAccessRoute(SA, route, ctx(), "write")).toBe(true);
    const onlySilver = { features: allOn, hrEditorTypes: [SI] as PermissionType[] };
    expect(canAccessRoute(SI, route, onlySilver, "write")).toBe(true);
    expect(canAccessRoute(GO, route, onlySilver, "write")).toBe(false);
    // An editor type that is not a reader still cannot open the page.
    expect(canAccessRoute(BR, route, { features: allOn, hrEditorTypes: [BR] }, "write")).toBe(false);
  });

  it("forecast review: FORECAST_REVIEWER_TYPES read it (and open the board) without editing it", () => {
    const review: RouteId = "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
    const silverReviews = { ...ctx(), forecastReviewerTypes: [SI] as PermissionType[] };
    expect(canAccessRoute(SI, review, ctx())).toBe(false);
    expect(canAccessRoute(SI, review, silverReviews)).toBe(true);
    expect(canAccessRoute(SI, review, silverReviews, "write")).toBe(false);
    expect(canAccessRoute(GO, review, silverReviews, "write")).toBe(true);
    expect(canAccessRoute(SI, "routes/ij.forecast_status", silverReviews)).toBe(true);
    expect(canAccessRoute(SA, "routes/ij.forecast_status", silverReviews)).toBe(true);
    expect(canAccessRoute(GO, "routes/ij.forecast_status", silverReviews)).toBe(false);
    expect(canAccessRoute(SI, "routes/ij.forecast_preparers", silverReviews)).toBe(false);
  });

  it("comments on cells: whoever reads the grid posts them, though only editors change its figures", () => {
    const silverReviews = { ...ctx(), forecastReviewerTypes: [SI] as PermissionType[] };
    const reviewComments: RouteId = "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios";
    expect(canAccessRoute(SI, reviewComments, silverReviews, "write")).toBe(true);
    expect(canAccessRoute(SI, reviewComments, ctx(), "write")).toBe(false);
    expect(canAccessRoute(SI, "routes/ij.rh_edit_.$filial.comentarios", ctx(), "write")).toBe(true);
    expect(canAccessRoute(BR, "routes/ij.rh_edit_.$filial.comentarios", ctx(), "write")).toBe(false);
  });

  it("consolidated forecast: reviewers and SYSTEM ADMIN save versions, only SYSTEM ADMIN deletes them", () => {
    const consolidated: RouteId = "routes/ij.forecast_consolidado";
    const versions: RouteId = "routes/ij.forecast_versoes";
    const silverReviews = { ...ctx(), forecastReviewerTypes: [SI] as PermissionType[] };
    expect(canAccessRoute(GO, consolidated, ctx(), "write")).toBe(false);
    expect(canAccessRoute(SA, consolidated, ctx(), "write")).toBe(true);
    expect(canAccessRoute(SI, consolidated, silverReviews)).toBe(true);
    expect(canAccessRoute(SI, consolidated, silverReviews, "write")).toBe(true);
    expect(canAccessRoute(SA, consolidated, silverReviews, "write")).toBe(true);
    expect(canAccessRoute(SI, versions, silverReviews, "write")).toBe(false);
    expect(canAccessRoute(GO, versions, ctx(), "write")).toBe(false);
    expect(canAccessRoute(SA, versions, ctx(), "write")).toBe(true);
  });

  it("seasonality profiles: the configured reviewers and SYSTEM ADMIN keep them; a preparer neither reads nor writes", () => {
    const route: RouteId = "routes/ij.forecast_perfis_sazonalidade";
    const silverReviews = { ...ctx(), forecastReviewerTypes: [SI] as PermissionType[] };
    expect(canAccessRoute(GO, route, ctx())).toBe(false);
    expect(canAccessRoute(GO, route, ctx(), "write")).toBe(false);
    expect(canAccessRoute(SA, route, ctx(), "write")).toBe(true);
    expect(canAccessRoute(SI, route, silverReviews, "write")).toBe(true);
    expect(canAccessRoute(SA, route, silverReviews, "write")).toBe(true);
    expect(canAccessRoute(SA, route, ctx(off("report")))).toBe(false);
  });

  it("FP&A report (/ij/report_save): report readers read, only SYSTEM ADMIN and USER GOLD save", () => {
    const route: RouteId = "routes/ij.report_save";
    expect(canAccessRoute(SI, route, ctx())).toBe(true);
    expect(canAccessRoute(SI, route, ctx(), "write")).toBe(false);
    expect(canAccessRoute(GO, route, ctx(), "write")).toBe(true);
    expect(canAccessRoute(SA, route, ctx(), "write")).toBe(true);
    expect(canAccessRoute(GO, route, ctx(off("report")), "write")).toBe(false);
  });

  it("report preview: report readers read, saving needs the planning rule", () => {
    const route: RouteId = "routes/ij.report_preview";
    expect(canAccessRoute(SI, route, ctx())).toBe(true);
    expect(canAccessRoute(SI, route, ctx(), "write")).toBe(false);
    expect(canAccessRoute(GO, route, ctx(), "write")).toBe(true);
    expect(canAccessRoute(GO, route, ctx(off("planning")), "write")).toBe(false);
    expect(canAccessRoute(GO, route, ctx(off("planning")))).toBe(true);
  });
});

describe("tiers", () => {
  it("has the four assignable tiers with the spec's labels", () => {
    expect(ASSIGNABLE_TIERS).toEqual([EX, BR, SI, GO]);
    expect(TIER_LABELS).toEqual({ [EX]: "Explorer", [BR]: "Básico", [SI]: "Padrão", [GO]: "Avançado" });
  });
});

const dashboards: DashboardSummary[] = [
  { painelId: 10, panelLabel: "Vendas", panelType: 1 },
  { painelId: 2, panelLabel: "Estoque", panelType: 1 },
  { painelId: 1, panelLabel: "Jobs", panelType: 2 },
  { painelId: 5, panelLabel: "Jobs 2", panelType: 2 },
];

describe("landingFor (spec 000 §6)", () => {
  it("sends SYSTEM ADMIN and USER GOLD to the first panelType-1 dashboard by painelId", () => {
    expect(landingFor(SA, dashboards, ctx())).toBe("/ij/painel/2");
    expect(landingFor(GO, dashboards, ctx())).toBe("/ij/painel/2");
  });

  it("has the fixed landings of the other types", () => {
    expect(landingFor(UA, dashboards, ctx())).toBe("/user/config/");
    expect(landingFor(EX, dashboards, ctx())).toBe("/ij/explorer");
    expect(landingFor(BR, dashboards, ctx())).toBe("/captura/manual");
    expect(landingFor(SI, dashboards, ctx())).toBe("/captura/manual");
    expect(landingFor(PE, dashboards, ctx())).toBe("/user/permission");
  });

  it("falls back when there is no dashboard or its flag is off", () => {
    expect(landingFor(SA, [], ctx())).toBe("/jobs/executados");
    expect(landingFor(GO, dashboards, ctx(off("dashboard")))).toBe("/jobs/executados");
    expect(landingFor(GO, [], ctx({ ...allOn, jobsExecuted: false }))).toBe("/ij/explorer");
    const nothing = Object.fromEntries(Object.keys(allOn).map((k) => [k, false])) as Features;
    expect(landingFor(GO, [], ctx(nothing))).toBe(FALLBACK_LANDING);
    expect(landingFor(EX, [], ctx(nothing))).toBe(FALLBACK_LANDING);
  });
});

describe("buildNavigation", () => {
  const labels = (type: PermissionType, features = allOn) =>
    buildNavigation(type, dashboards, ctx(features)).sideNav.map((g) => [g.label, g.items.map((i) => i.label)]);

  it("builds the header menu per type with the spec's texts", () => {
    const menu = (type: PermissionType) =>
      buildNavigation(type, dashboards, ctx()).menu.map((m) => `${m.label}→${m.to}`);
    expect(menu(SA)).toEqual([
      "Configurações de usuários→/user/permission",
      "Auditoria→/user/audit",
      "E-mails enviados→/user/emails",
      "Logout→/logout",
    ]);
    // With MAIL=smtp there is no outbox to read.
    expect(buildNavigation(SA, dashboards, ctx(off("mailOutbox"))).menu.map((m) => m.to)).not.toContain("/user/emails");
    expect(menu(PE)).toEqual(["Configurações de usuários→/user/permission", "Logout→/logout"]);
    expect(menu(UA)).toEqual(["Gerenciamento de usuários→/user/config", "Logout→/logout"]);
    for (const t of [EX, BR, SI, GO] as PermissionType[]) expect(menu(t)).toEqual(["Logout→/logout"]);
  });

  it("hides the side navigation for USER ADMIN", () => {
    const nav = buildNavigation(UA, dashboards, ctx());
    expect(nav.sideNavHidden).toBe(true);
    expect(nav.sideNav).toEqual([]);
  });

  it("gives USER GOLD everything, dashboards sorted by painelId", () => {
    expect(labels(GO)).toEqual([
      [
        "Intelligent Journey",
        [
          "Estoque",
          "Vendas",
          "Financial Statement",
          "Relatorios",
          "Forecast consolidado",
          "Revisão do forecast",
          "Meus centros de custo",
          "Explorer",
        ],
      ],
      [
        "Data Journey",
        ["Repository Master", "Arquivos", "Planejamento", "Auxiliar Padrão", "Captura manual", "Processamento"],
      ],
      ["Executed Jobs", ["Jobs", "Jobs 2", "Jobs executados"]],
    ]);
    const nav = buildNavigation(GO, dashboards, ctx());
    expect(nav.sideNav[0].items[0]).toEqual({ label: "Estoque", to: "/ij/painel/2" });
    expect(nav.sideNav[2].items[0]).toEqual({ label: "Jobs", to: "/jobs/dashboard/1" });
  });

  it("keeps the financial statement to USER GOLD only", () => {
    expect(labels(SA)[0]).toEqual([
      "Intelligent Journey",
      [
        "Estoque",
        "Vendas",
        "Relatorios",
        "Forecast consolidado",
        "Revisão do forecast",
        "Meus centros de custo",
        "Situação do forecast",
        "Responsáveis pelo forecast",
        "Perfis de sazonalidade",
        "Explorer",
      ],
    ]);
  });

  it("shows the lower tiers only their items", () => {
    expect(labels(EX)).toEqual([["Intelligent Journey", ["Explorer"]]]);
    expect(labels(BR)).toEqual([["Data Journey", ["Captura manual", "Processamento"]]]);
    expect(labels(SI)).toEqual([
      ["Intelligent Journey", ["Relatorios", "Explorer"]],
      ["Data Journey", ["Auxiliar Padrão", "Captura manual", "Processamento"]],
    ]);
    expect(labels(PE)).toEqual([]);
  });

  it("drops items whose flag is off", () => {
    expect(labels(EX, off("explorer"))).toEqual([]);
    expect(labels(GO, off("dashboard"))[0]).toEqual([
      "Intelligent Journey",
      [
        "Financial Statement",
        "Relatorios",
        "Forecast consolidado",
        "Revisão do forecast",
        "Meus centros de custo",
        "Explorer",
      ],
    ]);
    expect(labels(GO, off("financialStatement"))[0][1]).not.toContain("Financial Statement");
    expect(labels(GO, off("planning"))[1][1]).not.toContain("Planejamento");
  });

  it("shows a link exactly when its route admits the type (flags off hide them too)", () => {
    const linkRoute: Record<string, RouteId> = {
      "/ij/demo_financial": "routes/ij.demo_financial",
      "/ij/report": "routes/ij.report",
      "/ij/forecast_consolidado": "routes/ij.forecast_consolidado",
      "/ij/report_create_schneider": "routes/ij.report_create_schneider",
      "/ij/forecast_meus_centros": "routes/ij.forecast_meus_centros",
      "/ij/forecast_status": "routes/ij.forecast_status",
      "/ij/forecast_preparers": "routes/ij.forecast_preparers",
      "/ij/forecast_perfis_sazonalidade": "routes/ij.forecast_perfis_sazonalidade",
      "/ij/explorer": "routes/ij.explorer",
      "/repo/master-data": "routes/repo.master-data._index",
      "/repo/format": "routes/repo.format",
      "/ij/plan": "routes/ij.plan",
      "/ij/rh": "routes/ij.rh",
      "/captura/manual": "routes/captura.manual",
      "/captura/processando": "routes/captura.processando",
      "/jobs/executados": "routes/jobs.executados",
    };
    for (const features of [allOn, off("report"), off("upload"), off("explorer")]) {
      for (const type of PERMISSION_TYPES) {
        const shown = buildNavigation(type, dashboards, ctx(features)).sideNav.flatMap((g) => g.items.map((i) => i.to));
        for (const [to, route] of Object.entries(linkRoute)) {
          const expected = type !== UA && canAccessRoute(type, route, ctx(features));
          expect(shown.includes(to), `${type} ${to}`).toBe(expected);
        }
      }
    }
  });
});
