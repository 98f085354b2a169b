import { describe, expect, it } from "vitest";
import type { FeatureFlag } from "~/config.server";
import { PERMISSION_TYPES, type PermissionType } from "~/models/users.server";
import {
  ASSIGNABLE_TIERS,
  FALLBACK_LANDING,
  TIER_LABELS,
  buildNavigation,
  canAccess,
  findRouteRule,
  landingFor,
  type DashboardSummary,
  type Features,
} from "./access";

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
};
const off = (flag: FeatureFlag): Features => ({ ...allOn, [flag]: false });

const SA = "SYSTEM ADMIN";
const UA = "USER ADMIN";
const EX = "USER EXPLORER";
const BR = "USER BRONZE";
const SI = "USER SILVER";
const GO = "USER GOLD";
const PE = "USER PERMISS";

/**
 * Every route of both spec documents, written out here by hand (from spec 000 §2 / 001 §2, §6 and the
 * decisions recorded for the silent cases), NOT derived from the table under test.
 */
const EXPECTED: Array<[path: string, types: PermissionType[], flag: FeatureFlag | null]> = [
  ["/ij/painel/7", [SA, GO], "dashboard"],
  ["/jobs/dashboard/3", [SA, GO], "dashboard"],
  ["/jobs/executados", [SA, GO], "jobsExecuted"],
  ["/user/config", [UA], null],
  ["/user/config/", [UA], null],
  ["/user/permission", [SA, PE], null],
  ["/captura/manual", [SA, BR, SI, GO], "upload"],
  ["/captura/automacao", [SA, BR, SI, GO], "upload"],
  ["/captura/processando", [SA, BR, SI, GO], "upload"],
  ["/repo/format", [SA, GO], "masterRepository"],
  ["/repo/master-data", [SA, GO], "masterRepository"],
  ["/repo/master-data/canal", [SA, GO], "masterRepository"],
  ["/repo/master-data/planejamento", [SA, GO], "masterRepository"],
  ["/ij/plan", [SA, GO], "planning"],
  ["/ij/plan_edit", [SA, GO], "planning"],
  ["/ij/report", [SA, SI, GO], "report"],
  ["/ij/report_preview", [SA, SI, GO], "report"],
  ["/ij/report_create", [SA, SI, GO], "report"],
  ["/ij/report_save", [SA, SI, GO], "report"],
  ["/ij/report_create_schneider", [SA, GO], "report"],
  ["/ij/report_preview_schneider", [SA, GO], "report"],
  ["/ij/report_preview_edit_schneider/RF1%202020/CC-100", [SA, GO], "report"],
  ["/ij/explorer", [EX, SA, SI, GO], "explorer"],
  ["/ij/rh", [SA, GO], null],
  ["/ij/rh_edit/0101", [SA, GO], null],
  ["/ij/demo_financial", [GO], "financialStatement"],
  ["/ij/preview_financial", [GO], "financialStatement"],
  ["/ij/cockpit", [SA, GO], "report"],
  ["/ij/cockpit_preview", [SA, GO], "report"],
];

describe("route rules: every spec route × every type × each flag", () => {
  for (const [path, types, flag] of EXPECTED) {
    it(`${path}`, () => {
      expect(findRouteRule(path)).toBeDefined();
      for (const type of PERMISSION_TYPES) {
        expect(canAccess(type, path, allOn), `${type} on ${path}`).toBe(types.includes(type));
      }
      expect(canAccess("", path, allOn)).toBe(false);
      expect(canAccess(undefined, path, allOn)).toBe(false);
      const flags = Object.keys(allOn) as FeatureFlag[];
      for (const f of flags) {
        for (const type of types) {
          expect(canAccess(type, path, off(f)), `${type} on ${path} with ${f} off`).toBe(f !== flag);
        }
      }
    });
  }

  it("denies unknown pages under protected prefixes and opens public ones", () => {
    expect(findRouteRule("/ij/unknown")).toBeUndefined();
    expect(canAccess(SA, "/ij/unknown", allOn)).toBe(false);
    expect(canAccess(SA, "/user", allOn)).toBe(false);
    expect(canAccess(SA, "/ij/painel", allOn)).toBe(false);
    expect(canAccess(SA, "/ij/painel/1/extra", allOn)).toBe(false);
    expect(canAccess(SA, "/ijx", allOn)).toBe(true);
    expect(canAccess(undefined, "/", allOn)).toBe(true);
    expect(canAccess(undefined, "/recovery/123456", allOn)).toBe(true);
    expect(canAccess(undefined, "/home", allOn)).toBe(true);
  });

  it("ignores the query string", () => {
    expect(canAccess(GO, "/ij/plan_edit?page=2", allOn)).toBe(true);
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
    expect(landingFor(SA, dashboards)).toBe("/ij/painel/2");
    expect(landingFor(GO, dashboards, allOn)).toBe("/ij/painel/2");
  });

  it("has the fixed landings of the other types", () => {
    expect(landingFor(UA, dashboards)).toBe("/user/config/");
    expect(landingFor(EX, dashboards)).toBe("/ij/explorer");
    expect(landingFor(BR, dashboards)).toBe("/captura/manual");
    expect(landingFor(SI, dashboards)).toBe("/captura/manual");
    expect(landingFor(PE, dashboards)).toBe("/user/permission");
  });

  it("falls back when there is no dashboard or its flag is off", () => {
    expect(landingFor(SA, [])).toBe("/jobs/executados");
    expect(landingFor(GO, dashboards, off("dashboard"))).toBe("/jobs/executados");
    expect(landingFor(GO, [], { ...allOn, jobsExecuted: false })).toBe("/ij/explorer");
    const nothing = Object.fromEntries(Object.keys(allOn).map((k) => [k, false])) as Features;
    expect(landingFor(GO, [], nothing)).toBe(FALLBACK_LANDING);
    expect(landingFor(EX, [], nothing)).toBe(FALLBACK_LANDING);
  });
});

describe("buildNavigation", () => {
  const labels = (type: PermissionType, features = allOn) =>
    buildNavigation(type, dashboards, features).sideNav.map((g) => [g.label, g.items.map((i) => i.label)]);

  it("builds the header menu per type with the spec's texts", () => {
    const menu = (type: PermissionType) => buildNavigation(type, dashboards, allOn).menu.map((m) => `${m.label}→${m.to}`);
    expect(menu(SA)).toEqual(["Configurações de usuários→/user/permission", "Logout→/logout"]);
    expect(menu(PE)).toEqual(["Configurações de usuários→/user/permission", "Logout→/logout"]);
    expect(menu(UA)).toEqual(["Gerenciamento de usuários→/user/config", "Logout→/logout"]);
    for (const t of [EX, BR, SI, GO] as PermissionType[]) expect(menu(t)).toEqual(["Logout→/logout"]);
  });

  it("hides the side navigation for USER ADMIN", () => {
    const nav = buildNavigation(UA, dashboards, allOn);
    expect(nav.sideNavHidden).toBe(true);
    expect(nav.sideNav).toEqual([]);
  });

  it("gives USER GOLD everything, dashboards sorted by painelId", () => {
    expect(labels(GO)).toEqual([
      ["Intelligent Journey", ["Estoque", "Vendas", "Financial Statement", "Relatorios", "Explorer"]],
      ["Data Journey", ["Repository Master", "Planejamento", "Captura manual", "Processamento"]],
      ["Executed Jobs", ["Jobs", "Jobs 2", "Jobs executados"]],
    ]);
    const nav = buildNavigation(GO, dashboards, allOn);
    expect(nav.sideNav[0].items[0]).toEqual({ label: "Estoque", to: "/ij/painel/2" });
    expect(nav.sideNav[2].items[0]).toEqual({ label: "Jobs", to: "/jobs/dashboard/1" });
  });

  it("keeps the financial statement to USER GOLD only", () => {
    expect(labels(SA)[0]).toEqual(["Intelligent Journey", ["Estoque", "Vendas", "Relatorios", "Explorer"]]);
  });

  it("shows the lower tiers only their items", () => {
    expect(labels(EX)).toEqual([["Intelligent Journey", ["Explorer"]]]);
    expect(labels(BR)).toEqual([["Data Journey", ["Captura manual", "Processamento"]]]);
    expect(labels(SI)).toEqual([
      ["Intelligent Journey", ["Relatorios", "Explorer"]],
      ["Data Journey", ["Captura manual", "Processamento"]],
    ]);
    expect(labels(PE)).toEqual([]);
  });

  it("drops items whose flag is off", () => {
    expect(labels(EX, off("explorer"))).toEqual([]);
    expect(labels(GO, off("dashboard"))[0]).toEqual(["Intelligent Journey", ["Financial Statement", "Relatorios", "Explorer"]]);
    expect(labels(GO, off("financialStatement"))[0][1]).not.toContain("Financial Statement");
    expect(labels(GO, off("planning"))[1][1]).not.toContain("Planejamento");
  });

  it("every side-nav link is a page the guard lets through", () => {
    for (const type of PERMISSION_TYPES) {
      for (const group of buildNavigation(type, dashboards, allOn).sideNav) {
        for (const item of group.items) expect(canAccess(type, item.to, allOn)).toBe(true);
      }
    }
  });
});
