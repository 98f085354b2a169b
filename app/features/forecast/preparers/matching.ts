/**
 * Suggesting the forecast preparers from the FP&A responsibles. The FP&A data names a PERSON
 * (`userResponsible`), not an account: a name becomes an account only when exactly one portal user has it, compared
 * without case, accents or extra spaces; everything else is listed with its reason, never guessed. Pure.
 */

/** A name as it is compared: accents removed, lower-cased, spaces collapsed and trimmed. */
export function nameKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** The code of a cost centre ("CC1001" of "CC1001 - Marketing"): the text before " - ", trimmed, upper-cased. */
export function costCenterCode(costCenter: string): string {
  const at = costCenter.indexOf(" - ");
  return (at >= 0 ? costCenter.slice(0, at) : costCenter).trim().toUpperCase();
}

export type ResponsibleInput = { unit: string; costCenter: string; userResponsible: string };
export type UserInput = { user: string; name: string; type: string };

export type Proposal = {
  unit: string;
  /** The FP&A record's cost centre, as written there. */
  source: string;
  cost_center_concat: string;
  user: string;
  name: string;
};

export type Unmatched = {
  unit: string;
  costCenter: string;
  userResponsible: string;
  reason:
    | { kind: "costCenterNotFound" }
    | { kind: "costCenterAmbiguous"; count: number }
    | { kind: "noName" }
    | { kind: "noUser" }
    | { kind: "manyUsers"; count: number }
    | { kind: "cannotEdit"; user: string; type: string };
};

/**
 * Matches each FP&A responsible to a forecast cost centre (by its exact `cost_center_concat`, else by its code when
 * exactly one forecast cost centre has that code) and to a portal user (by name, when exactly one user has it, and
 * only if that user's type may edit the forecast: `mayEdit`). Proposals are unique per cost centre × user.
 */
export function matchResponsibles(
  responsibles: readonly ResponsibleInput[],
  costCenters: readonly string[],
  users: readonly UserInput[],
  mayEdit: (type: string) => boolean,
): { proposals: Proposal[]; unmatched: Unmatched[] } {
  const exact = new Set(costCenters);
  const byCode = new Map<string, string[]>();
  for (const cc of costCenters) {
    const code = costCenterCode(cc);
    byCode.set(code, [...(byCode.get(code) ?? []), cc]);
  }
  const byName = new Map<string, UserInput[]>();
  for (const u of users) {
    const key = nameKey(u.name);
    if (key === "") continue;
    byName.set(key, [...(byName.get(key) ?? []), u]);
  }

  const proposals: Proposal[] = [];
  const unmatched: Unmatched[] = [];
  const seen = new Set<string>();
  for (const r of responsibles) {
    const miss = (reason: Unmatched["reason"]) =>
      unmatched.push({ unit: r.unit, costCenter: r.costCenter, userResponsible: r.userResponsible, reason });
    const written = r.costCenter.trim();
    let cc: string | null = exact.has(written) ? written : null;
    if (!cc) {
      const candidates = written === "" ? [] : (byCode.get(costCenterCode(written)) ?? []);
      if (candidates.length === 0) {
        miss({ kind: "costCenterNotFound" });
        continue;
      }
      if (candidates.length > 1) {
        miss({ kind: "costCenterAmbiguous", count: candidates.length });
        continue;
      }
      cc = candidates[0];
    }
    const key = nameKey(r.userResponsible);
    if (key === "") {
      miss({ kind: "noName" });
      continue;
    }
    const named = byName.get(key) ?? [];
    if (named.length === 0) {
      miss({ kind: "noUser" });
      continue;
    }
    if (named.length > 1) {
      miss({ kind: "manyUsers", count: named.length });
      continue;
    }
    const [user] = named;
    if (!mayEdit(user.type)) {
      miss({ kind: "cannotEdit", user: user.user, type: user.type });
      continue;
    }
    const pair = `${cc}\u0000${user.user}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    proposals.push({ unit: r.unit, source: r.costCenter, cost_center_concat: cc, user: user.user, name: user.name });
  }
  return { proposals, unmatched };
}

/**
 * The people a name typed in a form names (the preparers' add form): those whose name is it (as `nameKey` compares),
 * else those whose name has, for each word typed, a word starting with it ("ped our" names Pedro Ouro). One is that
 * person; several are offered to pick from; none is said so. Nothing is guessed.
 */
export function peopleNamed<P extends { name: string }>(typed: string, people: readonly P[]): P[] {
  const key = nameKey(typed);
  if (key === "") return [];
  const exact = people.filter((p) => nameKey(p.name) === key);
  if (exact.length > 0) return exact;
  const words = key.split(" ");
  return people.filter((p) => {
    const own = nameKey(p.name).split(" ");
    return words.every((w) => own.some((o) => o.startsWith(w)));
  });
}
