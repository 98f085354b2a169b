import { z } from "zod";
import {
  ADMIN_TIERS_PROTECTED,
  ASSIGNABLE_TIERS,
  DEFAULT_TIER_FOR_NEW_USERS,
  isTier,
  type PermissionType,
} from "~/access";
import { getConfig } from "~/config.server";
import { createUser, deleteUser } from "~/features/access/accounts.server";
import { revokeApiTokensOf } from "~/models/api-tokens.server";
import {
  findScimUser,
  findScimUserByEmail,
  listScimUsers,
  type ScimUserRecord,
  setScimUserActive,
  setScimUserName,
} from "~/models/scim-users.server";
import { deleteSessionsOfUser } from "~/models/sessions.server";
import { type AuditActorInput, recordAudit } from "~/platform/audit/record.server";
import { UserExistsError } from "~/services/identity/types";
import { USER_PATCH_ATTRIBUTES } from "./patch-paths";
import { DEFAULT_COUNT, groupIdOf, listResponse, SCIM_PREFIX, scimError, scimJson, USER_SCHEMA } from "./protocol";
import { applyPatch, parseListQuery, patchOperations, type ScimCall } from "./requests.server";

/**
 * SCIM Users over the permission records (and the identity provider, through the user administration's own
 * functions): a directory creates, finds, updates, deactivates and deletes the users of the four tiers and those
 * without a type. Administrative types are not SCIM's: they are neither listed nor changed. Deactivating ends the
 * user's sessions and API tokens at once; a user reactivated gets back the type it had.
 */

/** The types SCIM manages: the four tiers, and no type (deactivated, or in no group). */
export const SCIM_MANAGED: ReadonlyArray<PermissionType | ""> = [...ASSIGNABLE_TIERS, ""];

export function toScimUser(record: ScimUserRecord, base: string) {
  const tier = isTier(record.type) ? record.type : null;
  return {
    schemas: [USER_SCHEMA],
    id: record._id.toHexString(),
    userName: record.user,
    displayName: record.name ?? "",
    name: { formatted: record.name ?? "" },
    active: record.active !== false,
    emails: [{ value: record.user, primary: true, type: "work" }],
    groups: tier
      ? [{ value: groupIdOf(tier), display: tier, $ref: `${base}${SCIM_PREFIX}/Groups/${groupIdOf(tier)}` }]
      : [],
    meta: {
      resourceType: "User",
      created: (record.createdAt ?? new Date(0)).toISOString(),
      lastModified: (record.updatedAt ?? record.createdAt ?? new Date(0)).toISOString(),
      location: `${base}${SCIM_PREFIX}/Users/${record._id.toHexString()}`,
    },
  };
}

/** What a directory sends for a user; unknown attributes (Entra's and Okta's extensions) are ignored. */
const userBody = z
  .object({
    userName: z.string().trim().email().max(320),
    displayName: z.string().max(200).optional(),
    name: z
      .object({
        formatted: z.string().max(200).optional(),
        givenName: z.string().max(100).optional(),
        familyName: z.string().max(100).optional(),
      })
      .partial()
      .optional(),
    active: z.union([z.boolean(), z.enum(["true", "false", "True", "False"])]).optional(),
  })
  .passthrough();

const activeOf = (value: unknown): boolean | undefined =>
  typeof value === "boolean" ? value : typeof value === "string" ? value.toLowerCase() === "true" : undefined;

function nameOf(body: z.infer<typeof userBody>, email: string): string {
  const given = [body.name?.givenName, body.name?.familyName].filter(Boolean).join(" ");
  return (body.displayName || body.name?.formatted || given || email.split("@")[0]).trim().slice(0, 200);
}

async function audited(call: ScimCall, event: "userChanged", record: ScimUserRecord, details: Record<string, unknown>) {
  await recordAudit({
    actor: call.actor,
    event,
    object: { kind: "user", id: record.user },
    outcome: "ok",
    details: { via: call.via, ...details },
  });
}

/** Applies a wanted name and activity to a record: the one path of create, replace and PATCH. */
async function applyUser(call: ScimCall, record: ScimUserRecord, wanted: { name?: string; active?: boolean }) {
  if (wanted.name !== undefined && (await setScimUserName(record, wanted.name, call.actor.email)))
    await audited(call, "userChanged", record, { before: { name: record.name }, after: { name: wanted.name } });
  if (
    wanted.active !== undefined &&
    (await setScimUserActive(record, wanted.active, DEFAULT_TIER_FOR_NEW_USERS, call.actor.email))
  ) {
    if (!wanted.active) {
      // Deactivated: every session and token of the user ends now.
      await deleteSessionsOfUser(record.user);
      await revokeApiTokensOf(record.user, call.actor.email);
    }
    await audited(call, "userChanged", record, {
      before: { active: record.active !== false },
      after: { active: wanted.active },
    });
  }
}

const notFound = () => scimError(404, "Usuário não encontrado.");

export async function getUser(call: ScimCall, id: string): Promise<Response> {
  const record = await findScimUser(id, SCIM_MANAGED);
  return record ? scimJson(toScimUser(record, call.base)) : notFound();
}

export async function listUsers(call: ScimCall, url: URL): Promise<Response> {
  const query = parseListQuery(url, {
    userName: "userName",
    "emails.value": "userName",
    'emails[type eq "work"].value': "userName",
  });
  if ("error" in query) return query.error;
  const { rows, total } = await listScimUsers(SCIM_MANAGED, {
    userName: query.equals.userName,
    skip: query.startIndex - 1,
    limit: query.count,
  });
  return scimJson(
    listResponse(
      rows.map((r) => toScimUser(r, call.base)),
      total,
      query.startIndex,
    ),
  );
}

export async function createScimUser(call: ScimCall, body: unknown): Promise<Response> {
  const parsed = userBody.safeParse(body);
  if (!parsed.success) return scimError(400, "userName deve ser um e-mail válido.", "invalidValue");
  const email = parsed.data.userName;
  if (await findScimUserByEmail(email, [...SCIM_MANAGED, ...ADMIN_TIERS_PROTECTED]))
    return scimError(409, `Já existe um usuário ${email}.`, "uniqueness");
  // With single sign-on on, the directory that provisions the user is the one it signs in through: no password.
  const ssoOnly = getConfig().sso.mode !== "none";
  const outcome = await createUser(email, call.actor.email, call.actor, { via: call.via, ssoOnly }).catch(
    (error: unknown) => {
      if (error instanceof UserExistsError) return { kind: "exists" as const };
      throw error;
    },
  );
  if (outcome.kind === "exists") return scimError(409, `Já existe um usuário ${email}.`, "uniqueness");
  if (outcome.kind !== "created") return scimError(400, "Não foi possível criar o usuário.", "invalidValue");
  const record = await findScimUserByEmail(email, SCIM_MANAGED);
  if (!record) return scimError(500, "O usuário criado não foi encontrado.");
  await applyUser(call, record, { name: nameOf(parsed.data, email), active: activeOf(parsed.data.active) });
  const stored = (await findScimUser(record._id.toHexString(), SCIM_MANAGED)) ?? record;
  const created = toScimUser(stored, call.base);
  return scimJson(created, 201, { Location: created.meta.location });
}

export async function replaceUser(call: ScimCall, id: string, body: unknown): Promise<Response> {
  const record = await findScimUser(id, SCIM_MANAGED);
  if (!record) return notFound();
  const parsed = userBody.safeParse(body);
  if (!parsed.success) return scimError(400, "userName deve ser um e-mail válido.", "invalidValue");
  if (parsed.data.userName.toLowerCase() !== record.user)
    return scimError(400, "O userName (e-mail) de um usuário não muda.", "mutability");
  await applyUser(call, record, {
    name: nameOf(parsed.data, record.user),
    active: activeOf(parsed.data.active) ?? true,
  });
  return getUser(call, id);
}

/**
 * PATCH with the path forms the directories send (`active`, `displayName`, `name.formatted`, no path with a value
 * object, Entra's capitalised `Replace` and `"False"`): applied by scim-patch to the user as SCIM shows it, then what
 * changed among the attributes the portal keeps is written.
 */
export async function patchUser(call: ScimCall, id: string, body: unknown): Promise<Response> {
  const record = await findScimUser(id, SCIM_MANAGED);
  if (!record) return notFound();
  const operations = patchOperations(body, USER_PATCH_ATTRIBUTES);
  if ("error" in operations) return operations.error;
  const current = toScimUser(record, call.base);
  const applied = applyPatch(current, operations.list);
  if ("error" in applied) return applied.error;
  const { patched } = applied;
  if (String(patched.userName).toLowerCase() !== record.user)
    return scimError(400, "O userName (e-mail) de um usuário não muda.", "mutability");
  const nameChanged =
    patched.displayName !== current.displayName
      ? patched.displayName
      : patched.name?.formatted !== current.name.formatted
        ? patched.name?.formatted
        : undefined;
  await applyUser(call, record, {
    name: typeof nameChanged === "string" ? nameChanged.trim().slice(0, 200) : undefined,
    active: activeOf(patched.active),
  });
  return getUser(call, id);
}

export async function deleteScimUser(call: ScimCall, id: string): Promise<Response> {
  const record = await findScimUser(id, SCIM_MANAGED);
  if (!record) return notFound();
  const actor: AuditActorInput = call.actor;
  const outcome = await deleteUser(record.user, actor, { withoutType: true, via: call.via });
  if (outcome.kind !== "deleted") return scimError(409, "Este usuário não pode ser excluído pelo SCIM.");
  await revokeApiTokensOf(record.user, call.actor.email);
  return new Response(null, { status: 204 });
}

export { DEFAULT_COUNT };
