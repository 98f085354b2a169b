import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { canAccessRoute } from "~/access";
import { accessContext } from "~/config.server";
import {
  countViews,
  defaultViewOf,
  deleteView,
  findView,
  insertView,
  listViews,
  MAX_VIEWS_PER_USER,
  type SavedViewRecord,
  setDefaultView,
  ViewNameTakenError,
} from "~/models/saved-views.server";
import { recordAudit } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { redirectWithToast } from "~/shared/toast.server";
import { VIEWS_PATH, viewScreenAt } from "./screens";
import { savedViewTexts } from "./texts";
import { checkViewAddress } from "./view-address";

/**
 * Saved views (/user/visoes and the "Salvar visão" form of each screen that keeps them): each user's own, stored as a
 * screen path and the screen's own parameters of its query as the address holds them, checked before they are kept
 * (view-address.ts). The default view of a screen is what its menu entry (the screen's address without a query) opens.
 * Deleting a view is an audit entry; saving and choosing a default are not.
 */

export { viewAddressOf } from "./view-address";

const hrefOf = (view: Pick<SavedViewRecord, "screen" | "query">) => `${view.screen}${view.query}`;

/** A stored view's address checked again as when it was saved (a record kept from before, or written past the feature). */
function openableHref(view: Pick<SavedViewRecord, "screen" | "query">): string | null {
  const check = checkViewAddress(hrefOf(view));
  return check.ok ? hrefOf(check.address) : null;
}

export type ViewRow = {
  id: string;
  name: string;
  screen: string;
  href: string;
  shareUrl: string;
  isDefault: boolean;
  /** Whether it may be its screen's default (a screen without a menu entry has none). */
  canDefault: boolean;
  canOpen: boolean;
};

export async function loadViewsPage(user: AuthenticatedUser, origin: string): Promise<{ rows: ViewRow[] }> {
  const context = accessContext();
  const rows = (await listViews(user.email)).map((view) => {
    const at = viewScreenAt(view.screen);
    const screen = at?.screen;
    const openable = openableHref(view);
    const label = screen ? savedViewTexts.screens[screen.id] : view.screen;
    return {
      id: String(view._id),
      name: view.name,
      screen: at && at.segments.length > 0 ? savedViewTexts.screenOf(label, at.segments) : label,
      href: openable ?? hrefOf(view),
      shareUrl: `${origin}${openable ?? hrefOf(view)}`,
      isDefault: view.isDefault,
      canDefault: screen?.keepsDefault ?? false,
      // A view of a screen the user may no longer open stays listed (to delete it), without its link.
      canOpen: !!screen && openable !== null && canAccessRoute(user.type, screen.routeId, context),
    };
  });
  return { rows };
}

const saveSchema = z.object({
  intent: z.literal("save"),
  name: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().min(1).max(60)),
  path: z.string().max(2_300),
});
const idSchema = z.object({
  intent: z.enum(["default", "undefault", "delete"]),
  id: z.string().regex(/^[0-9a-f]{24}$/i),
});

/** The form's POST (intent save from a screen; default, undefault and delete from the list). */
export async function viewsAction(user: AuthenticatedUser, request: Request) {
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "save") return saveView(user, form);
  const parsed = idSchema.safeParse(form);
  const view = parsed.success ? await findView(user.email, parsed.data.id) : null;
  if (!parsed.success || !view) return data({ error: savedViewTexts.errors.notFound }, { status: 404 });
  if (parsed.data.intent === "delete") {
    if (await deleteView(view))
      await recordAudit({
        actor: user,
        event: "viewDeleted",
        object: { kind: "screen", id: view.screen, label: view.name },
        outcome: "ok",
        details: { query: view.query.slice(0, 500) },
      });
    return redirectWithToast(VIEWS_PATH, { type: "success", description: savedViewTexts.deleted(view.name) });
  }
  const on = parsed.data.intent === "default";
  if (on && !viewScreenAt(view.screen)?.screen.keepsDefault)
    return data({ error: savedViewTexts.errors.noDefault }, { status: 400 });
  await setDefaultView(view, on);
  return redirectWithToast(VIEWS_PATH, {
    type: "success",
    description: on ? savedViewTexts.defaultOn(view.name) : savedViewTexts.defaultOff(view.name),
  });
}

async function saveView(user: AuthenticatedUser, form: Record<string, unknown>) {
  const parsed = saveSchema.safeParse(form);
  const check = checkViewAddress(parsed.success ? parsed.data.path : form.path);
  // Back to the screen the form was on (when it is one), with the answer as a toast.
  const back = check.ok ? hrefOf(check.address) : (check.back ?? VIEWS_PATH);
  const refuse = (description: string) => redirectWithToast(back, { type: "error", description });
  if (!check.ok) return refuse(check.error);
  if (!parsed.success) return refuse(savedViewTexts.errors.name);
  const { address } = check;
  if ((await countViews(user.email)) >= MAX_VIEWS_PER_USER)
    return refuse(savedViewTexts.errors.limit(MAX_VIEWS_PER_USER));
  try {
    await insertView({ user: user.email, screen: address.screen, query: address.query, name: parsed.data.name });
  } catch (error) {
    if (error instanceof ViewNameTakenError) return refuse(savedViewTexts.errors.taken(parsed.data.name));
    throw error;
  }
  return redirectWithToast(back, { type: "success", description: savedViewTexts.saved(parsed.data.name) });
}

/**
 * A screen opened without a query (its menu entry) goes to the user's default view of it, when there is one; with a
 * query, it shows what the address says. Called by the loaders of the screens that keep views, after their guard.
 */
export async function redirectToDefaultView(user: AuthenticatedUser, request: Request): Promise<void> {
  const url = new URL(request.url);
  if (url.search !== "" || request.method !== "GET" || url.pathname.endsWith(".data")) return;
  const view = await defaultViewOf(user.email, url.pathname);
  const href = view && view.query !== "" ? openableHref(view) : null;
  if (href) throw redirect(href);
}
