import { z } from "zod";
import { ASSIGNABLE_TIERS, type Tier } from "~/access";
import { findScimUser, listScimUsers, type ScimUserRecord, setScimUserType } from "~/models/scim-users.server";
import { deleteSessionsOfUser } from "~/models/sessions.server";
import { recordAudit } from "~/platform/audit/record.server";
import { GROUP_PATCH_ATTRIBUTES } from "./patch-paths";
import {
  GROUP_SCHEMA,
  groupIdOf,
  listResponse,
  MAX_COUNT,
  SCIM_PREFIX,
  scimError,
  scimJson,
  tierOfGroupId,
  tierOfGroupName,
} from "./protocol";
import { applyPatch, parseListQuery, patchOperations, type ScimCall } from "./requests.server";
import { SCIM_MANAGED } from "./users.server";

/**
 * SCIM Groups: the four permission tiers. Membership sets the user's type (a user is in one group at most): added to a
 * group, the user gets its tier; removed from the group of its tier, none ("CONTATE SEU ADMIN"). As with a change on
 * /user/permission, the user's sessions end, so the next request carries the new type; tokens follow the type at
 * their next call. The groups themselves are fixed: none is created, renamed or deleted.
 */

/** Most members one group answer lists (a directory of more asks with excludedAttributes=members). */
const MEMBERS_MAX = 10_000;

async function groupOf(tier: Tier, base: string, withMembers: boolean) {
  const members = withMembers
    ? (await listScimUsers(SCIM_MANAGED, { type: tier, skip: 0, limit: MEMBERS_MAX })).rows.map((r) => ({
        value: r._id.toHexString(),
        display: r.user,
        $ref: `${base}${SCIM_PREFIX}/Users/${r._id.toHexString()}`,
      }))
    : undefined;
  return {
    schemas: [GROUP_SCHEMA],
    id: groupIdOf(tier),
    displayName: tier,
    ...(members ? { members } : {}),
    meta: { resourceType: "Group", location: `${base}${SCIM_PREFIX}/Groups/${groupIdOf(tier)}` },
  };
}

const withMembers = (url: URL) => !/\bmembers\b/i.test(url.searchParams.get("excludedAttributes") ?? "");
const notFound = () => scimError(404, "Grupo não encontrado.");

export async function listGroups(call: ScimCall, url: URL): Promise<Response> {
  const query = parseListQuery(url, { displayName: "displayName" });
  if ("error" in query) return query.error;
  const wanted = query.equals.displayName;
  const tiers = wanted === undefined ? [...ASSIGNABLE_TIERS] : [tierOfGroupName(wanted)].filter((t): t is Tier => !!t);
  const page = tiers.slice(query.startIndex - 1, query.startIndex - 1 + Math.min(query.count, MAX_COUNT));
  const groups = await Promise.all(page.map((tier) => groupOf(tier, call.base, withMembers(url))));
  return scimJson(listResponse(groups, tiers.length, query.startIndex));
}

export async function getGroup(call: ScimCall, id: string, url: URL): Promise<Response> {
  const tier = tierOfGroupId(id);
  return tier ? scimJson(await groupOf(tier, call.base, withMembers(url))) : notFound();
}

const memberList = z.array(z.object({ value: z.string().max(100) }).passthrough()).max(MEMBERS_MAX);

/** Gives the group's tier to the users now listed, and none to its members no longer listed. */
async function applyMembers(
  call: ScimCall,
  tier: Tier,
  before: Set<string>,
  after: Set<string>,
): Promise<Response | null> {
  const added = [...after].filter((id) => !before.has(id));
  const removed = [...before].filter((id) => !after.has(id));
  const records = await Promise.all(added.map((id) => findScimUser(id, SCIM_MANAGED)));
  if (records.some((r) => r === null)) return scimError(400, "Membro desconhecido.", "invalidValue");
  const change = async (record: ScimUserRecord, type: Tier | "") => {
    if (!(await setScimUserType(record, type, call.actor.email))) return;
    await deleteSessionsOfUser(record.user);
    await recordAudit({
      actor: call.actor,
      event: "userChanged",
      object: { kind: "user", id: record.user },
      outcome: "ok",
      details: { via: call.via, before: { type: record.type }, after: { type } },
    });
  };
  for (const record of records) if (record) await change(record, tier);
  for (const id of removed) {
    const record = await findScimUser(id, SCIM_MANAGED);
    // Only a user still of this group's tier leaves it (a move to another group may have come first).
    if (record && record.type === tier) await change(record, "");
  }
  return null;
}

const memberIds = (members: unknown): Set<string> | null => {
  const parsed = memberList.safeParse(members ?? []);
  return parsed.success ? new Set(parsed.data.map((m) => m.value)) : null;
};

export async function patchGroup(call: ScimCall, id: string, body: unknown): Promise<Response> {
  const tier = tierOfGroupId(id);
  if (!tier) return notFound();
  const operations = patchOperations(body, GROUP_PATCH_ATTRIBUTES);
  if ("error" in operations) return operations.error;
  if (operations.list.some((o) => o.path && !/^members\b/i.test(o.path)))
    return scimError(400, "Só os membros de um grupo mudam.", "mutability");
  const current = await groupOf(tier, call.base, true);
  const before = new Set((current.members ?? []).map((m) => m.value));
  const applied = applyPatch(current, operations.list);
  if ("error" in applied) return applied.error;
  const { patched } = applied;
  if (patched.displayName !== tier) return scimError(400, "O nome de um grupo não muda.", "mutability");
  const after = memberIds(patched.members);
  if (!after) return scimError(400, "Membros inválidos.", "invalidValue");
  const refused = await applyMembers(call, tier, before, after);
  if (refused) return refused;
  return new Response(null, { status: 204 });
}

export async function replaceGroup(call: ScimCall, id: string, body: unknown, url: URL): Promise<Response> {
  const tier = tierOfGroupId(id);
  if (!tier) return notFound();
  const parsed = z
    .object({ displayName: z.string().optional(), members: z.unknown().optional() })
    .passthrough()
    .safeParse(body);
  if (!parsed.success) return scimError(400, "Corpo inválido.", "invalidSyntax");
  if (parsed.data.displayName !== undefined && tierOfGroupName(parsed.data.displayName) !== tier)
    return scimError(400, "O nome de um grupo não muda.", "mutability");
  const after = memberIds(parsed.data.members);
  if (!after) return scimError(400, "Membros inválidos.", "invalidValue");
  const current = await groupOf(tier, call.base, true);
  const refused = await applyMembers(call, tier, new Set((current.members ?? []).map((m) => m.value)), after);
  return refused ?? getGroup(call, id, url);
}
