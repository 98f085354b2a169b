import { profileNameKey, type SeasonalityProfile } from "~/models/seasonality-profiles.server";
import { monthStart, type SeedContext } from "./context";

/**
 * The demo's seasonality profiles (a base of the forecast's "Distribuir total"), kept by the demo's SYSTEM ADMIN: a
 * retail year whose Christmas weighs most, and an industrial one that slows in the holidays.
 */
const PROFILES: readonly { name: string; weights: number[] }[] = [
  { name: "Varejo — Natal forte", weights: [0.8, 0.7, 0.9, 0.9, 1.1, 1, 1, 1, 0.9, 1, 1.6, 2.4] },
  { name: "Indústria — férias coletivas", weights: [0.6, 0.9, 1.1, 1.1, 1.1, 1.1, 1, 1.1, 1.1, 1.1, 1, 0.5] },
];

export function generateSeasonalityProfiles(ctx: SeedContext): SeasonalityProfile[] {
  const random = ctx.random.fork("seasonality_profiles");
  const at = monthStart(ctx.reference, -1);
  const by = { email: "sysadmin@demo.local", name: "Sônia Administradora" };
  return PROFILES.map((p) => ({
    _id: random.objectId(at),
    name: p.name,
    name_key: profileNameKey(p.name),
    weights: p.weights,
    created_at: at,
    created_by: by.email,
    created_by_name: by.name,
    updated_at: at,
    updated_by: by.email,
    updated_by_name: by.name,
  }));
}
