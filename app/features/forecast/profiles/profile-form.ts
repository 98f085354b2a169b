import { z } from "zod";
import { type NumberRule, readNumber } from "~/shared/numbers";
import { MONTH_NAMES, profileTexts as t } from "./texts";

/**
 * The form of /ij/forecast_perfis_sazonalidade, read on the server (the browser sends it as typed): `intent` "salvar"
 * (a new profile, or `id` with `atualizado`, its `updated_at` as the editor read it) or "excluir" (`id`); `nome`, 1 to
 * 80 characters once trimmed, without control characters; `peso1` … `peso12` (January … December), pt-BR numbers
 * from 0 to 1.000.000 with up to 4 decimals ("1,5"), not all zero. What was typed comes back with the messages, by
 * field.
 */

export const PROFILE_NAME_MAX = 80;
export const PROFILE_WEIGHT_MAX = 1_000_000;
export const PROFILE_WEIGHT_DECIMALS = 4;
/** A month's weight: 0 to 1.000.000, up to 4 decimals typed exactly. */
export const PROFILE_WEIGHT_RULE: NumberRule = {
  decimals: PROFILE_WEIGHT_DECIMALS,
  min: 0,
  max: PROFILE_WEIGHT_MAX,
  excessDecimals: "refuse",
};
export const PROFILE_INTENTS = ["salvar", "excluir"] as const;
export type ProfileIntent = (typeof PROFILE_INTENTS)[number];

/** The field of month `m` (1 = January). */
export const weightField = (m: number) => `peso${m}`;

/** What the form held, as typed (to show it again with its messages). */
export type ProfileFormValues = { id: string; seen: string; name: string; weights: string[] };
/** Messages by field name (`nome`, `peso1` …); "" for the form as a whole. */
export type ProfileFormErrors = Record<string, string>;

export type ParsedProfileForm =
  | { ok: true; intent: "excluir"; id: string }
  | { ok: true; intent: "salvar"; id: string | null; seen: number | null; name: string; weights: number[] }
  | { ok: false; intent: ProfileIntent | null; values: ProfileFormValues; errors: ProfileFormErrors };

const HEX_ID = /^[0-9a-f]{24}$/i;

const rawSchema = z.object({
  intent: z.enum(PROFILE_INTENTS),
  id: z.union([z.literal(""), z.string().regex(HEX_ID)]),
  atualizado: z.union([z.literal(""), z.string().regex(/^\d{1,15}$/)]),
  nome: z.string().max(PROFILE_NAME_MAX * 4),
  pesos: z.array(z.string().max(40)).length(12),
});

/** A name as stored: trimmed; refused when empty, too long, or holding control characters or lone surrogates. */
function nameOf(typed: string): string | null {
  const name = typed.normalize("NFC").trim();
  if (name.length === 0 || [...name].length > PROFILE_NAME_MAX) return null;
  if (/[\p{Cc}\p{Cs}]/u.test(name)) return null;
  return name;
}

/** A month's weight: the portal's one reading of a typed number (~/shared/numbers) under PROFILE_WEIGHT_RULE. */
export function profileWeightOf(typed: string): number | null {
  const read = readNumber(typed, PROFILE_WEIGHT_RULE);
  return read.ok && !read.empty ? read.value : null;
}

/** The profile form of a POST body (or a query), checked whole. */
export function parseProfileForm(fields: FormData | URLSearchParams): ParsedProfileForm {
  const text = (name: string) => {
    const value = fields.get(name);
    return typeof value === "string" ? value : "";
  };
  const values: ProfileFormValues = {
    id: text("id").slice(0, 24),
    seen: text("atualizado").slice(0, 15),
    name: text("nome").slice(0, PROFILE_NAME_MAX * 4),
    weights: MONTH_NAMES.map((_, i) => text(weightField(i + 1)).slice(0, 40)),
  };
  const intentOf = (value: string) => (PROFILE_INTENTS as readonly string[]).includes(value);
  const intent = intentOf(text("intent")) ? (text("intent") as ProfileIntent) : null;
  const raw = rawSchema.safeParse({
    intent: text("intent"),
    id: text("id"),
    atualizado: text("atualizado"),
    nome: text("nome"),
    pesos: values.weights,
  });
  if (!raw.success) return { ok: false, intent, values, errors: { "": t.invalidForm } };
  const { data } = raw;
  if (data.intent === "excluir")
    return data.id
      ? { ok: true, intent: "excluir", id: data.id }
      : { ok: false, intent, values, errors: { "": t.notFound } };
  if (data.id && !data.atualizado) return { ok: false, intent, values, errors: { "": t.invalidForm } };
  const errors: ProfileFormErrors = {};
  const name = nameOf(data.nome);
  if (name === null) errors.nome = t.nameInvalid;
  const weights = data.pesos.map(profileWeightOf);
  weights.forEach((w, i) => {
    if (w === null) errors[weightField(i + 1)] = t.weightInvalid(MONTH_NAMES[i]);
  });
  if (weights.every((w) => w !== null) && !weights.some((w) => (w ?? 0) > 0)) errors[""] = t.weightsZero;
  if (Object.keys(errors).length > 0 || name === null) return { ok: false, intent, values, errors };
  return {
    ok: true,
    intent: "salvar",
    id: data.id || null,
    seen: data.atualizado ? Number(data.atualizado) : null,
    name,
    weights: weights as number[],
  };
}
