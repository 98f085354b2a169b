import { type Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { normalizeEmail, type PermissionType, USER_PERMISSIONS, type UserPermissionRecord } from "./users.server";

/**
 * The permission records as SCIM provisioning reads and writes them (app/api/scim): only users of the types it may
 * manage (`managed`: the four tiers and no type), by id, by e-mail, a page at a time; a user's activity (a deactivated
 * user keeps the type it had, to get it back when reactivated) and name.
 */

export type ScimUserRecord = UserPermissionRecord & {
  _id: ObjectId;
  /** false: deactivated by the identity provider (its type is then "" and the one it had is `inactiveType`). */
  active?: boolean;
  inactiveType?: PermissionType;
};

const collection = async () => (await getDb()).collection<ScimUserRecord>(USER_PERMISSIONS);

export async function findScimUser(
  id: string,
  managed: ReadonlyArray<PermissionType | "">,
): Promise<ScimUserRecord | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await collection()).findOne({ _id: ObjectId.createFromHexString(id), type: { $in: [...managed] } });
}

export async function findScimUserByEmail(
  email: string,
  managed: ReadonlyArray<PermissionType | "">,
): Promise<ScimUserRecord | null> {
  return (await collection()).findOne({ user: normalizeEmail(email), type: { $in: [...managed] } });
}

/** A page of managed users by e-mail (`userName`: one e-mail only), and how many match; `skip` from 0. */
export async function listScimUsers(
  managed: ReadonlyArray<PermissionType | "">,
  query: { userName?: string; type?: PermissionType; skip: number; limit: number },
): Promise<{ rows: ScimUserRecord[]; total: number }> {
  const filter: Filter<ScimUserRecord> = { type: { $in: [...managed] } };
  if (query.userName !== undefined) filter.user = normalizeEmail(query.userName);
  if (query.type !== undefined) filter.type = query.type;
  const users = await collection();
  const [rows, total] = await Promise.all([
    query.limit > 0
      ? users.find(filter).sort({ user: 1 }).skip(query.skip).limit(query.limit).toArray()
      : Promise.resolve([]),
    users.countDocuments(filter),
  ]);
  return { rows, total };
}

/**
 * Deactivates (type "" and the old type kept) or reactivates (the kept type back, else `fallback`) a managed user;
 * answers whether the record changed. Conditional on the type found, so a concurrent change is not overwritten.
 */
export async function setScimUserActive(
  record: ScimUserRecord,
  active: boolean,
  fallback: PermissionType,
  by: string,
  now = new Date(),
): Promise<boolean> {
  const isActive = record.active !== false;
  if (active === isActive) return false;
  const users = await collection();
  const result = active
    ? await users.updateOne(
        { _id: record._id, type: record.type },
        {
          $set: { type: record.inactiveType ?? fallback, updatedAt: now, updatedBy: normalizeEmail(by) },
          $unset: { active: "", inactiveType: "" },
        },
      )
    : await users.updateOne(
        { _id: record._id, type: record.type },
        {
          $set: {
            active: false,
            type: "",
            ...(record.type ? { inactiveType: record.type } : {}),
            updatedAt: now,
            updatedBy: normalizeEmail(by),
          },
        },
      );
  return result.modifiedCount > 0;
}

/** Sets a managed user's type ("" for none) while active; answers whether it changed. */
export async function setScimUserType(
  record: ScimUserRecord,
  type: PermissionType | "",
  by: string,
  now = new Date(),
): Promise<boolean> {
  if (record.active === false || record.type === type) return false;
  const result = await (await collection()).updateOne(
    { _id: record._id, type: record.type },
    { $set: { type, updatedAt: now, updatedBy: normalizeEmail(by) } },
  );
  return result.modifiedCount > 0;
}

export async function setScimUserName(record: ScimUserRecord, name: string, by: string, now = new Date()) {
  if (record.name === name) return false;
  const result = await (await collection()).updateOne(
    { _id: record._id },
    { $set: { name, updatedAt: now, updatedBy: normalizeEmail(by) } },
  );
  return result.modifiedCount > 0;
}
