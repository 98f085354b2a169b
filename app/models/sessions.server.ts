import { randomBytes } from "node:crypto";
import { getDb } from "~/db.server";
import type { DashboardSummary } from "~/navigation";
import { DASHBOARDS } from "./dashboards.server";
import type { IndexDeclaration } from "./indexes";
import { NOTICES, UNREAD } from "./notices.server";
import { normalizeEmail, USER_PERMISSIONS, type UserPermissionRecord } from "./users.server";

/**
 * Server-side sessions (the cookie carries only the id). Kept in MongoDB so logout, user deletion and tier
 * changes take effect on the next request in every container.
 */

export const SESSIONS = "sessions";

/** Tokens an identity provider returned at sign-in (Cognito); kept to sign the user out globally. */
export type ProviderTokens = { accessToken: string; idToken?: string; refreshToken?: string; expiresIn?: number };

export type SessionRecord = {
  /** 32 random bytes, base64url. */
  _id: string;
  email: string;
  createdAt: Date;
  lastSeenAt: Date;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
  providerTokens?: ProviderTokens;
};

export const indexes: IndexDeclaration[] = [
  {
    collection: SESSIONS,
    key: { absoluteExpiresAt: 1 },
    options: { name: "absoluteExpiresAt_ttl", expireAfterSeconds: 0 },
  },
  { collection: SESSIONS, key: { email: 1 }, options: { name: "email" } },
];

export type SessionTimeouts = { idleMinutes: number; absoluteHours: number };

function idleDeadline(now: Date, idleMinutes: number, absoluteExpiresAt: Date): Date {
  return new Date(Math.min(now.getTime() + idleMinutes * 60_000, absoluteExpiresAt.getTime()));
}

export async function insertSession(
  email: string,
  timeouts: SessionTimeouts,
  now: Date,
  providerTokens?: ProviderTokens,
  /** An identity provider's deadline (SAML SessionNotOnOrAfter, token expiry): the session never outlives it. */
  notOnOrAfter?: Date,
): Promise<SessionRecord> {
  const db = await getDb();
  const configuredEnd = now.getTime() + timeouts.absoluteHours * 3_600_000;
  const absoluteExpiresAt = new Date(notOnOrAfter ? Math.min(configuredEnd, notOnOrAfter.getTime()) : configuredEnd);
  const record: SessionRecord = {
    _id: randomBytes(32).toString("base64url"),
    email: normalizeEmail(email),
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: idleDeadline(now, timeouts.idleMinutes, absoluteExpiresAt),
    absoluteExpiresAt,
    ...(providerTokens ? { providerTokens } : {}),
  };
  await db.collection<SessionRecord>(SESSIONS).insertOne(record);
  return record;
}

export async function findSession(id: string): Promise<SessionRecord | null> {
  const db = await getDb();
  return db.collection<SessionRecord>(SESSIONS).findOne({ _id: id });
}

/**
 * A session with what every signed-in page reads beside it: its user's permission record (null once the user is
 * deleted), the user's unread notices (the header's count) and the tenant's dashboards (the menus), by painelId.
 */
export type SessionView = {
  session: SessionRecord;
  permission: UserPermissionRecord | null;
  unreadNotices: number;
  dashboards: DashboardSummary[];
};

/**
 * The session `id` and its view (SessionView) in one command, a page's single round trip before its own reads: the
 * permission record by the session's e-mail, the unread count through the notices' `to_read_at` index, and the
 * dashboards of `cliente`. Null when there is no such session.
 */
export async function findSessionView(id: string, cliente: string): Promise<SessionView | null> {
  const db = await getDb();
  const [found] = await db
    .collection<SessionRecord>(SESSIONS)
    .aggregate<
      SessionRecord & { permission: UserPermissionRecord[]; unread: { n: number }[]; dashboards: DashboardSummary[] }
    >([
      { $match: { _id: id } },
      { $lookup: { from: USER_PERMISSIONS, localField: "email", foreignField: "user", as: "permission" } },
      {
        $lookup: {
          from: NOTICES,
          localField: "email",
          foreignField: "to",
          pipeline: [{ $match: UNREAD }, { $count: "n" }],
          as: "unread",
        },
      },
      {
        $lookup: {
          from: DASHBOARDS,
          pipeline: [
            { $match: { cliente } },
            { $sort: { painelId: 1 } },
            { $project: { _id: 0, painelId: 1, panelLabel: 1, panelType: 1 } },
          ],
          as: "dashboards",
        },
      },
    ])
    .toArray();
  if (!found) return null;
  const { permission, unread, dashboards, ...session } = found;
  return { session, permission: permission[0] ?? null, unreadNotices: unread[0]?.n ?? 0, dashboards };
}

/** Slides the idle deadline; never past the absolute one. */
export async function touchSession(session: SessionRecord, idleMinutes: number, now: Date): Promise<SessionRecord> {
  const db = await getDb();
  const idleExpiresAt = idleDeadline(now, idleMinutes, session.absoluteExpiresAt);
  await db
    .collection<SessionRecord>(SESSIONS)
    .updateOne({ _id: session._id }, { $set: { lastSeenAt: now, idleExpiresAt } });
  return { ...session, lastSeenAt: now, idleExpiresAt };
}

export async function deleteSession(id: string): Promise<SessionRecord | null> {
  const db = await getDb();
  return db.collection<SessionRecord>(SESSIONS).findOneAndDelete({ _id: id });
}

export async function deleteSessionsOfUser(email: string): Promise<number> {
  const db = await getDb();
  const result = await db.collection<SessionRecord>(SESSIONS).deleteMany({ email: normalizeEmail(email) });
  return result.deletedCount;
}

export async function countSessionsOfUser(email: string): Promise<number> {
  const db = await getDb();
  return db.collection<SessionRecord>(SESSIONS).countDocuments({ email: normalizeEmail(email) });
}
