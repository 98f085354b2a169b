import { ObjectId } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import type { IndexDeclaration } from "./indexes";

/**
 * Stored seasonality profiles: a named shape of the year, one non-negative weight per calendar month (January first),
 * that "Distribuir total" of the forecast review offers as a base ("Como o perfil de sazonalidade"). A profile holds no
 * forecast figures and belongs to no cost centre: whoever spreads may use any; only the screen
 * /ij/forecast_perfis_sazonalidade writes them (its route's rule: the forecast reviewers and SYSTEM ADMIN). A name is
 * unique without regard to case or repeated spaces (`name_key`, a unique index; checked before writing too).
 */

export const SEASONALITY_PROFILES = "seasonality_profiles";
/** Profiles the portal keeps: the screen and the spread's select list them all, without paging. */
export const SEASONALITY_PROFILES_MAX = 200;

export type SeasonalityProfile = {
  _id: ObjectId;
  name: string;
  /** `name` as compared: trimmed, inner spaces single, lower case (pt-BR). */
  name_key: string;
  /** January … December: each ≥ 0, not all 0. */
  weights: number[];
  created_at: Date;
  created_by: string;
  created_by_name: string;
  updated_at: Date;
  updated_by: string;
  updated_by_name: string;
};

export const indexes: IndexDeclaration[] = [
  { collection: SEASONALITY_PROFILES, key: { name_key: 1 }, options: { unique: true, name: "nameKey_unique" } },
];

const profiles = async () => (await getDb()).collection<SeasonalityProfile>(SEASONALITY_PROFILES);

/** How names are compared: "  Varejo  — Natal " and "varejo — natal" are the same name. */
export const profileNameKey = (name: string) =>
  name.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("pt-BR");

const idOf = (id: string): ObjectId | null => (/^[0-9a-f]{24}$/i.test(id) ? ObjectId.createFromHexString(id) : null);

/** Every profile, by name. */
export async function listSeasonalityProfiles(): Promise<SeasonalityProfile[]> {
  return (await profiles()).find({}).sort({ name_key: 1 }).limit(SEASONALITY_PROFILES_MAX).toArray();
}

/** One profile by its id (24 hex digits; anything else: null). */
export async function findSeasonalityProfile(id: string): Promise<SeasonalityProfile | null> {
  const _id = idOf(id);
  return _id ? (await profiles()).findOne({ _id }) : null;
}

export type ProfileAuthor = { email: string; name: string };
export type ProfileInput = { name: string; weights: readonly number[] };
export type ProfileWrite =
  /** `before`: the profile as it was (null for a new one). */
  | { ok: true; profile: SeasonalityProfile; before: SeasonalityProfile | null }
  | { ok: false; reason: "nameTaken" | "full" | "notFound" | "changed" };

async function nameTaken(key: string, except?: ObjectId): Promise<boolean> {
  const found = await (await profiles()).findOne(except ? { name_key: key, _id: { $ne: except } } : { name_key: key }, {
    projection: { _id: 1 },
  });
  return found !== null;
}

export async function createSeasonalityProfile(input: ProfileInput, by: ProfileAuthor): Promise<ProfileWrite> {
  const collection = await profiles();
  const name_key = profileNameKey(input.name);
  if (await nameTaken(name_key)) return { ok: false, reason: "nameTaken" };
  if ((await collection.countDocuments({})) >= SEASONALITY_PROFILES_MAX) return { ok: false, reason: "full" };
  const at = new Date();
  const profile: SeasonalityProfile = {
    _id: new ObjectId(),
    name: input.name,
    name_key,
    weights: [...input.weights],
    created_at: at,
    created_by: by.email,
    created_by_name: by.name,
    updated_at: at,
    updated_by: by.email,
    updated_by_name: by.name,
  };
  try {
    await collection.insertOne(profile);
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, reason: "nameTaken" };
    throw error;
  }
  return { ok: true, profile, before: null };
}

/**
 * Changes a profile's name and weights, only while it is still as the editor read it (`seen`: its `updated_at` in
 * milliseconds): a change made meanwhile by someone else is "changed", not overwritten.
 */
export async function updateSeasonalityProfile(
  id: string,
  seen: number,
  input: ProfileInput,
  by: ProfileAuthor,
): Promise<ProfileWrite> {
  const _id = idOf(id);
  const collection = await profiles();
  const before = _id ? await collection.findOne({ _id }) : null;
  if (!_id || !before) return { ok: false, reason: "notFound" };
  if (before.updated_at.getTime() !== seen) return { ok: false, reason: "changed" };
  const name_key = profileNameKey(input.name);
  if (await nameTaken(name_key, _id)) return { ok: false, reason: "nameTaken" };
  const set = {
    name: input.name,
    name_key,
    weights: [...input.weights],
    updated_at: new Date(),
    updated_by: by.email,
    updated_by_name: by.name,
  };
  try {
    const profile = await collection.findOneAndUpdate(
      { _id, updated_at: before.updated_at },
      { $set: set },
      { returnDocument: "after" },
    );
    return profile ? { ok: true, profile, before } : { ok: false, reason: "changed" };
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, reason: "nameTaken" };
    throw error;
  }
}

/** Removes a profile; the removed one, or null when there was none. */
export async function deleteSeasonalityProfile(id: string): Promise<SeasonalityProfile | null> {
  const _id = idOf(id);
  return _id ? (await profiles()).findOneAndDelete({ _id }) : null;
}
