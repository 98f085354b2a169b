import type { PermissionType } from "~/models/users.server";

/** The demo accounts the seed creates; all share DEMO_PASSWORD. Printed by `npm run demo`. */

export const DEMO_PASSWORD = "Portal#2026";

export type DemoAccount = {
  email: string;
  /** "" = no permission type (the login then shows CONTATE SEU ADMIN). */
  type: PermissionType | "";
  name: string;
  note: string;
  mustChangePassword?: boolean;
};

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: "sysadmin@demo.local", type: "SYSTEM ADMIN", name: "Sônia Administradora", note: "everything; user settings" },
  { email: "useradmin@demo.local", type: "USER ADMIN", name: "Ulisses Gestor", note: "user management only" },
  { email: "permiss@demo.local", type: "USER PERMISS", name: "Paula Permissões", note: "assigns permission tiers" },
  { email: "explorer@demo.local", type: "USER EXPLORER", name: "Eduardo Explorador", note: "lands on the explorer" },
  { email: "bronze@demo.local", type: "USER BRONZE", name: "Bruna Bronze", note: "uploads (Básico)" },
  { email: "silver@demo.local", type: "USER SILVER", name: "Sérgio Prata", note: "uploads, reports, explorer (Padrão)" },
  { email: "gold@demo.local", type: "USER GOLD", name: "Gabriela Ouro", note: "dashboards, repository, financial (Avançado)" },
  { email: "notype@demo.local", type: "", name: "Nilo Sem Tipo", note: "no permission type: CONTATE SEU ADMIN" },
  {
    email: "firstaccess@demo.local",
    type: "USER BRONZE",
    name: "Fábio Primeiro Acesso",
    note: "must set a new password at first sign-in",
    mustChangePassword: true,
  },
];
