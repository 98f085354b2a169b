import type { CacheItem, CacheProvider } from "@node-saml/node-saml";
import { getDb, isDuplicateKeyError } from "~/db.server";
import type { IndexDeclaration } from "./indexes";

/**
 * SAML single sign-on state shared by every container:
 * - `saml_requests`: the ID of each AuthnRequest we sent, until the IdP answers or it expires
 *   (node-saml's InResponseTo validation reads it through the CacheProvider below);
 * - `saml_assertions`: the ID of each assertion we accepted, until its NotOnOrAfter, so a
 *   second use of the same assertion is refused.
 * Both carry `expiresAt` with a TTL index; reads also compare `expiresAt` with the clock, so an
 * entry the TTL monitor has not removed yet is never honoured.
 */

export const SAML_REQUESTS = "saml_requests";
export const SAML_ASSERTIONS = "saml_assertions";

type SamlRequestRecord = { _id: string; value: string; createdAt: Date; expiresAt: Date };
type SamlAssertionRecord = { _id: string; email: string; usedAt: Date; expiresAt: Date };

export const indexes: IndexDeclaration[] = [
  { collection: SAML_REQUESTS, key: { expiresAt: 1 }, options: { expireAfterSeconds: 0, name: "expires_ttl" } },
  { collection: SAML_ASSERTIONS, key: { expiresAt: 1 }, options: { expireAfterSeconds: 0, name: "expires_ttl" } },
];

/** IDs come from XML we have not trusted yet: accept only plain, bounded strings (xs:ID / NCName-like). */
const MAX_ID_LENGTH = 256;
function isUsableId(key: unknown): key is string {
  return typeof key === "string" && key.length > 0 && key.length <= MAX_ID_LENGTH && /^[A-Za-z0-9_.:-]+$/.test(key);
}

/**
 * node-saml's CacheProvider over MongoDB. `saveAsync` is called when an AuthnRequest is built,
 * `getAsync` when a response names it in InResponseTo, `removeAsync` once the response was handled
 * (accepted or not), so each request ID answers at most one response.
 */
export function createSamlRequestCache(ttlMs: number): CacheProvider {
  return {
    async saveAsync(key: string, value: string): Promise<CacheItem | null> {
      if (!isUsableId(key)) return null;
      const now = new Date();
      const db = await getDb();
      try {
        await db.collection<SamlRequestRecord>(SAML_REQUESTS).insertOne({
          _id: key,
          value,
          createdAt: now,
          expiresAt: new Date(now.getTime() + ttlMs),
        });
      } catch (error) {
        if (isDuplicateKeyError(error)) return null;
        throw error;
      }
      return { value, createdAt: now.getTime() };
    },

    async getAsync(key: string): Promise<string | null> {
      if (!isUsableId(key)) return null;
      const db = await getDb();
      const found = await db
        .collection<SamlRequestRecord>(SAML_REQUESTS)
        .findOne({ _id: key, expiresAt: { $gt: new Date() } }, { projection: { value: 1 } });
      return found?.value ?? null;
    },

    async removeAsync(key: string | null): Promise<string | null> {
      if (!isUsableId(key)) return null;
      const db = await getDb();
      const removed = await db.collection<SamlRequestRecord>(SAML_REQUESTS).findOneAndDelete({ _id: key });
      return removed?.value ?? null;
    },
  };
}

/**
 * Records that an assertion was used to sign in. Returns false when the same assertion ID was
 * already used (a replay), true the first time. The unique `_id` makes this hold under races,
 * including two containers receiving the same response at once.
 */
export async function recordAssertionUse(assertionId: string, email: string, notOnOrAfter: Date): Promise<boolean> {
  if (!isUsableId(assertionId)) return false;
  const db = await getDb();
  try {
    await db.collection<SamlAssertionRecord>(SAML_ASSERTIONS).insertOne({
      _id: assertionId,
      email,
      usedAt: new Date(),
      expiresAt: notOnOrAfter,
    });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}
