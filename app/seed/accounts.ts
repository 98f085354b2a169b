import { type AccessContext, type AccessMode, canAccessRoute, type RouteId } from "~/access";
import type { PermissionType } from "~/models/users.server";

/** The demo accounts the seed creates; all share DEMO_PASSWORD. Printed by `npm run demo`. */

export const DEMO_PASSWORD = "Portal#2026";

export type DemoAccount = {
  email: string;
  /** "" = no permission type (the login then shows CONTATE SEU ADMIN). */
  type: PermissionType | "";
  name: string;
  /** What the access table cannot say (no type, first access); what the account opens is read from the table. */
  note?: string;
  mustChangePassword?: boolean;
};

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: "sysadmin@demo.local", type: "SYSTEM ADMIN", name: "Sônia Administradora" },
  { email: "useradmin@demo.local", type: "USER ADMIN", name: "Ulisses Gestor" },
  { email: "permiss@demo.local", type: "USER PERMISS", name: "Paula Permissões" },
  { email: "explorer@demo.local", type: "USER EXPLORER", name: "Eduardo Explorador" },
  { email: "bronze@demo.local", type: "USER BRONZE", name: "Bruna Bronze" },
  { email: "silver@demo.local", type: "USER SILVER", name: "Sérgio Prata" },
  { email: "gold@demo.local", type: "USER GOLD", name: "Gabriela Ouro" },
  { email: "notype@demo.local", type: "", name: "Nilo Sem Tipo", note: "no permission type: CONTATE SEU ADMIN" },
  {
    email: "firstaccess@demo.local",
    type: "USER BRONZE",
    name: "Fábio Primeiro Acesso",
    note: "must set a new password at first sign-in",
    mustChangePassword: true,
  },
];

/** The areas the printed account list names, each by the route whose rule decides it. */
const AREAS: ReadonlyArray<{ label: string; route: RouteId; mode?: AccessMode }> = [
  { label: "dashboards", route: "routes/ij.painel.$id" },
  { label: "uploads", route: "routes/captura.manual" },
  { label: "all jobs", route: "routes/jobs.executados" },
  { label: "repository", route: "routes/repo.format" },
  { label: "planning", route: "routes/ij.plan_edit", mode: "write" },
  { label: "reports", route: "routes/ij.report" },
  { label: "forecast review and cockpit", route: "routes/ij.cockpit" },
  { label: "financial statement", route: "routes/ij.demo_financial" },
  { label: "HR (edits)", route: "routes/ij.rh_edit.$filial", mode: "write" },
  { label: "HR (read only)", route: "routes/ij.rh" },
  { label: "explorer", route: "routes/ij.explorer" },
  { label: "user settings", route: "routes/user.config" },
  { label: "permissions", route: "routes/user.permission" },
];

/** What the demo list says an account opens: read from the access table, so it is true under any configuration. */
export function demoAccountNote(account: DemoAccount, context: AccessContext): string {
  const opens = AREAS.filter((a) => canAccessRoute(account.type, a.route, context, a.mode ?? "read")).map(
    (a) => a.label,
  );
  // HR read only when it may read but not edit.
  const shown = opens.includes("HR (edits)") ? opens.filter((l) => l !== "HR (read only)") : opens;
  return [shown.join(", "), account.note].filter(Boolean).join("; ");
}
