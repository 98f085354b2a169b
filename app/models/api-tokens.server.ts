import { createHash, randomBytes } from "node:crypto";
import { ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import type { IndexDeclaration } from "./indexes";
import { normalizeEmail } from "./users.server";

/**
 * Tokens that let another system call the portal (docs/api.md): a user's personal API tokens, and the SCIM tokens
 * an administrator creates for an identity provider. The secret is shown once, when it is made; only its SHA-256 is
 * kept (the secret is 32 random bytes, so a plain hash is enough: nothing to guess).
 */

export const API_TOKENS = "api_tokens";

export const TOKEN_KINDS = ["personal", "scim"] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What every secret starts with, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = { personal: "jpt_", scim: "jps_" } as const satisfies Record<TokenKind, string>;

export type ApiTokenRecord = {
  _id: ObjectId;
  kind: TokenKind;
  /** The owner's e-mail (a personal token acts as its owner); null for a SCIM token. */
  owner: string | null;
  name: string;
  scope: TokenScope;
  /** SHA-256 of the secret, hex. */
  hash: string;
  /** The secret's first characters after its prefix, shown in lists to tell tokens apart. */
  hint: string;
  createdAt: Date;
  createdBy: string;
  /** When it stops working; null: never (a SCIM token SYSTEM ADMIN made without expiry). */
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
  /** The nearest expiry warning already sent, in days before `expiresAt` (14, then 3); absent before the first. */
  expiryWarned?: number;
  expiryWarnedAt?: Date;
};

export const indexes: IndexDeclaration[] = [
  { collection: API_TOKENS, key: { hash: 1 }, options: { name: "hash_unique", unique: true } },
  { collection: API_TOKENS, key: { kind: 1, owner: 1, createdAt: -1 }, options: { name: "kind_owner_createdAt" } },
  // The daily expiry warnings: the live tokens that expire within the next days.
  { collection: API_TOKENS, key: { expiresAt: 1 }, options: { name: "expiresAt" } },
];

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export type NewToken = {
  kind: TokenKind;
  owner: string | null;
  name: string;
  scope: TokenScope;
  expiresAt: Date | null;
  createdBy: string;
};

/** Stores a new token; answers the record and its secret (the only time the secret exists outside the caller). */
export async function insertApiToken(
  input: NewToken,
  now = new Date(),
): Promise<{ record: ApiTokenRecord; secret: string }> {
  const random = randomBytes(32).toString("base64url");
  const secret = `${TOKEN_PREFIX[input.kind]}${random}`;
  const record: ApiTokenRecord = {
    _id: new ObjectId(),
    kind: input.kind,
    owner: input.owner ? normalizeEmail(input.owner) : null,
    name: input.name,
    scope: input.scope,
    hash: hashSecret(secret),
    hint: random.slice(0, 6),
    createdAt: now,
    createdBy: normalizeEmail(input.createdBy),
    expiresAt: input.expiresAt,
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
  };
  const db = await getDb();
  await db.collection<ApiTokenRecord>(API_TOKENS).insertOne(record);
  return { record, secret };
}

/** The token a presented secret names, whatever its state (the caller decides what an expired one means). */
export async function findApiTokenBySecret(secret: string): Promise<ApiTokenRecord | null> {
  if (typeof secret !== "string" || secret.length > 200) return null;
  const db = await getDb();
  return db.collection<ApiTokenRecord>(API_TOKENS).findOne({ hash: hashSecret(secret) });
}

export async function findApiToken(id: string): Promise<ApiTokenRecord | null> {
  if (!ObjectId.isValid(id) || !/^[0-9a-f]{24}$/i.test(id)) return null;
  const db = await getDb();
  return db.collection<ApiTokenRecord>(API_TOKENS).findOne({ _id: new ObjectId(id) });
}

/** How long a use is not written again: a busy client does not write its token's record on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function noteApiTokenUsed(token: ApiTokenRecord, now = new Date()): Promise<void> {
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  const db = await getDb();
  await db.collection<ApiTokenRecord>(API_TOKENS).updateOne({ _id: token._id }, { $set: { lastUsedAt: now } });
}

export type TokenListQuery = { kind: TokenKind; owner?: string; skip: number; limit: number };

/** A page of tokens, newest first: one owner's, or (no owner) everyone's of the kind. */
export async function listApiTokens(query: TokenListQuery): Promise<{ rows: ApiTokenRecord[]; total: number }> {
  const db = await getDb();
  const filter: { kind: TokenKind; owner?: string } = { kind: query.kind };
  if (query.owner !== undefined) filter.owner = normalizeEmail(query.owner);
  const collection = db.collection<ApiTokenRecord>(API_TOKENS);
  const [rows, total] = await Promise.all([
    collection.find(filter).sort({ createdAt: -1, _id: -1 }).skip(query.skip).limit(query.limit).toArray(),
    collection.countDocuments(filter),
  ]);
  return { rows, total };
}

/** Revokes one token if it is not revoked yet; answers the record as it was before, or null. */
export async function revokeApiToken(id: ObjectId, by: string, now = new Date()): Promise<ApiTokenRecord | null> {
  const db = await getDb();
  return db
    .collection<ApiTokenRecord>(API_TOKENS)
    .findOneAndUpdate({ _id: id, revokedAt: null }, { $set: { revokedAt: now, revokedBy: normalizeEmail(by) } });
}

/** Revokes every live token of an owner (a deactivated or deleted user); answers how many. */
export async function revokeApiTokensOf(owner: string, by: string, now = new Date()): Promise<number> {
  const db = await getDb();
  const result = await db
    .collection<ApiTokenRecord>(API_TOKENS)
    .updateMany(
      { kind: "personal", owner: normalizeEmail(owner), revokedAt: null },
      { $set: { revokedAt: now, revokedBy: normalizeEmail(by) } },
    );
  return result.modifiedCount;
}

/** An owner's tokens that still work now (not revoked, not expired). */
export async function countLiveApiTokens(owner: string, now = new Date()): Promise<number> {
  const db = await getDb();
  return db.collection<ApiTokenRecord>(API_TOKENS).countDocuments({
    kind: "personal",
    owner: normalizeEmail(owner),
    revokedAt: null,
    $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
  });
}

/**
 * The tokens not revoked that expire after `now` and within `days` days whose warning of `days` (or a nearer one) has
 * not been claimed yet, soonest first (at most `limit`): a claimed token leaves this list.
 */
export async function listTokensDueWarning(now: Date, days: number, limit: number): Promise<ApiTokenRecord[]> {
  const db = await getDb();
  return db
    .collection<ApiTokenRecord>(API_TOKENS)
    .find({
      expiresAt: { $gt: now, $lte: new Date(now.getTime() + days * 86_400_000) },
      revokedAt: null,
      $or: [{ expiryWarned: { $exists: false } }, { expiryWarned: { $gt: days } }],
    })
    .sort({ expiresAt: 1 })
    .limit(limit)
    .toArray();
}

/**
 * Claims the expiry warning of `days` for one token: true for exactly one caller, however many processes try at
 * once, and only while no warning as near (or nearer) was sent; a nearer one sent replaces a farther one not sent.
 */
export async function claimExpiryWarning(id: ObjectId, days: number, now: Date): Promise<boolean> {
  const db = await getDb();
  const result = await db
    .collection<ApiTokenRecord>(API_TOKENS)
    .updateOne(
      { _id: id, revokedAt: null, $or: [{ expiryWarned: { $exists: false } }, { expiryWarned: { $gt: days } }] },
      { $set: { expiryWarned: days, expiryWarnedAt: now } },
    );
  return result.modifiedCount === 1;
}
