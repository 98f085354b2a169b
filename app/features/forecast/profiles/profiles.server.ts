import { data } from "@remix-run/node";
import {
  createSeasonalityProfile,
  deleteSeasonalityProfile,
  findSeasonalityProfile,
  listSeasonalityProfiles,
  type ProfileWrite,
  SEASONALITY_PROFILES_MAX,
  type SeasonalityProfile,
  updateSeasonalityProfile,
} from "~/models/seasonality-profiles.server";
import { recordConfigChanged } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { formatDateTime } from "~/shared/dates";
import { formatNumber, formatPercent } from "~/shared/numbers";
import { redirectWithToast } from "~/shared/toast.server";
import { PROFILES_PATH } from "./paths";
import {
  type ParsedProfileForm,
  PROFILE_WEIGHT_DECIMALS,
  type ProfileFormErrors,
  type ProfileFormValues,
  parseProfileForm,
} from "./profile-form";
import { profileTexts as t } from "./texts";

/**
 * /ij/forecast_perfis_sazonalidade: the stored seasonality profiles, their form (new, or `?editar=<id>`) and the
 * confirmation of a removal (`?excluir=<id>`), all in the URL and without JavaScript. The route's rule admits the
 * forecast reviewers and SYSTEM ADMIN, for reading and writing alike; each change names who and when on the profile and
 * in the audit trail.
 */

export type ProfileRow = {
  id: string;
  name: string;
  /** Each month's weight as typed back ("1,5"), and its share of the year ("12,5%"). */
  weights: string[];
  shares: string[];
  updated: string;
};

export type ProfilesPage = {
  rows: ProfileRow[];
  /** The form: a new profile or the one `?editar=` names; after a refused save, what was typed and its messages. */
  form: { editing: string | null; values: ProfileFormValues; errors: ProfileFormErrors };
  removing: { id: string; name: string } | null;
  /** Why no new profile may be added (the portal keeps SEASONALITY_PROFILES_MAX), or null. */
  full: string | null;
};

const weightText = (w: number) => formatNumber(w, PROFILE_WEIGHT_DECIMALS, 0);

function rowOf(p: SeasonalityProfile): ProfileRow {
  const sum = p.weights.reduce((a, b) => a + b, 0);
  return {
    id: p._id.toHexString(),
    name: p.name,
    weights: p.weights.map(weightText),
    shares: p.weights.map((w) => formatPercent(sum > 0 ? (w / sum) * 100 : 0)),
    updated: t.updatedBy(p.updated_by_name || p.updated_by, formatDateTime(p.updated_at)),
  };
}

const emptyValues = (): ProfileFormValues => ({ id: "", seen: "", name: "", weights: Array(12).fill("1") });

const valuesOf = (p: SeasonalityProfile): ProfileFormValues => ({
  id: p._id.toHexString(),
  seen: String(p.updated_at.getTime()),
  name: p.name,
  weights: p.weights.map(weightText),
});

export async function loadProfilesPage(url: URL): Promise<ProfilesPage> {
  const profiles = await listSeasonalityProfiles();
  const byId = new Map(profiles.map((p) => [p._id.toHexString(), p]));
  const edited = byId.get(url.searchParams.get("editar") ?? "");
  const removed = byId.get(url.searchParams.get("excluir") ?? "");
  return {
    rows: profiles.map(rowOf),
    form: { editing: edited?.name ?? null, values: edited ? valuesOf(edited) : emptyValues(), errors: {} },
    removing: removed ? { id: removed._id.toHexString(), name: removed.name } : null,
    full: profiles.length >= SEASONALITY_PROFILES_MAX ? t.full(SEASONALITY_PROFILES_MAX) : null,
  };
}

/** What a refused POST answers: the page, with the form as typed and its messages. */
async function refused(
  url: URL,
  values: ProfileFormValues,
  errors: ProfileFormErrors,
  status: number,
  editing: string | null = null,
) {
  const page = await loadProfilesPage(url);
  return data<ProfilesPage>({ ...page, form: { editing, values, errors } }, { status });
}

function refusalOf(reason: Exclude<ProfileWrite, { ok: true }>["reason"], name: string): ProfileFormErrors {
  if (reason === "nameTaken") return { nome: t.nameTaken(name) };
  return { "": reason === "full" ? t.full(SEASONALITY_PROFILES_MAX) : reason === "notFound" ? t.notFound : t.changed };
}

async function save(
  url: URL,
  form: Extract<ParsedProfileForm, { intent: "salvar"; ok: true }>,
  user: AuthenticatedUser,
) {
  const by = { email: user.email, name: user.name };
  const input = { name: form.name, weights: form.weights };
  const values: ProfileFormValues = {
    id: form.id ?? "",
    seen: form.seen === null ? "" : String(form.seen),
    name: form.name,
    weights: form.weights.map(weightText),
  };
  const written =
    form.id === null
      ? await createSeasonalityProfile(input, by)
      : await updateSeasonalityProfile(form.id, form.seen ?? 0, input, by);
  if (!written.ok) {
    const status = written.reason === "changed" ? 409 : written.reason === "notFound" ? 404 : 400;
    return refused(url, values, refusalOf(written.reason, form.name), status, form.id ? form.name : null);
  }
  const { before } = written;
  await recordConfigChanged(
    user,
    { id: `seasonalityProfile:${written.profile._id.toHexString()}`, label: `${t.title}: ${written.profile.name}` },
    before && { name: before.name, weights: before.weights },
    { name: written.profile.name, weights: written.profile.weights },
  );
  return redirectWithToast(PROFILES_PATH, {
    type: "success",
    description: before ? t.saved(written.profile.name) : t.created(written.profile.name),
  });
}

/** The POST: save (create or change) or remove a profile, after the route's write guard. */
export async function profilesAction(request: Request, user: AuthenticatedUser) {
  const url = new URL(request.url);
  const body = await request.formData().catch(() => null);
  const form: ParsedProfileForm = body
    ? parseProfileForm(body)
    : { ok: false, intent: null, values: emptyValues(), errors: { "": t.invalidForm } };
  if (!form.ok) {
    const current = form.values.id ? await findSeasonalityProfile(form.values.id) : null;
    return refused(url, form.values, form.errors, 400, current?.name ?? null);
  }
  if (form.intent === "salvar") return save(url, form, user);
  const removed = await deleteSeasonalityProfile(form.id);
  if (!removed) return refused(url, emptyValues(), { "": t.notFound }, 404);
  await recordConfigChanged(
    user,
    { id: `seasonalityProfile:${removed._id.toHexString()}`, label: `${t.title}: ${removed.name}` },
    { name: removed.name, weights: removed.weights },
    null,
  );
  return redirectWithToast(PROFILES_PATH, { type: "success", description: t.removed(removed.name) });
}
