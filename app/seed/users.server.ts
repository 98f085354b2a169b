import { scrypt as scryptCb } from "node:crypto";
import type { LocalUserRecord, PermissionType, UserPermissionRecord } from "~/models/users.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./accounts";
import { addDays, emailLocalPart, type SeedContext } from "./context";
import type { Random } from "./random";
import { BRANCH_NAMES, FIRST_NAMES, LAST_NAMES } from "./vocabulary";

// Same parameters and format as app/services/password-hash.server.ts, so verifyPassword accepts it.
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

const hashCache = new Map<string, Promise<string>>();

/**
 * The demo password hashed with a salt taken from the seed's PRNG, so the seed stays deterministic.
 * Every seeded account shares the one public demo password, so one salt per seed run loses nothing,
 * and hashing once keeps the seed fast (scrypt is slow by design).
 */
export function seededPasswordHash(password: string, random: Random): Promise<string> {
  const salt = Buffer.alloc(16);
  for (let i = 0; i < 16; i += 4) salt.writeUInt32BE(random.nextUint32(), i);
  const cacheKey = `${password}\u0000${salt.toString("hex")}`;
  let pending = hashCache.get(cacheKey);
  if (!pending) {
    pending = new Promise<string>((resolve, reject) =>
      scryptCb(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r: R, p: P }, (error, key) =>
        error
          ? reject(error)
          : resolve(["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$")),
      ),
    );
    hashCache.set(cacheKey, pending);
  }
  return pending;
}

const ORDINARY_TIERS: readonly (readonly [PermissionType, number])[] = [
  ["USER EXPLORER", 10],
  ["USER BRONZE", 20],
  ["USER SILVER", 18],
  ["USER GOLD", 12],
];

export type SeededUsers = {
  permissions: UserPermissionRecord[];
  localUsers: LocalUserRecord[];
  /** E-mails of everyone who may upload files (used by the file and report generators). */
  uploaders: string[];
};

/** Demo accounts plus ~60 ordinary users of the four assignable tiers. Not scaled. */
export async function generateUsers(ctx: SeedContext): Promise<SeededUsers> {
  const random = ctx.random.fork("users");
  const passwordHash = await seededPasswordHash(DEMO_PASSWORD, random);
  const permissions: UserPermissionRecord[] = [];
  const localUsers: LocalUserRecord[] = [];
  const used = new Set<string>();

  const add = (email: string, name: string, type: PermissionType | "", createdAt: Date | null, mustChange: boolean) => {
    const accountCreated = createdAt ?? addDays(ctx.reference, -720);
    const stores =
      type === "USER BRONZE" || type === "USER SILVER" ? random.sample(BRANCH_NAMES, random.int(0, 2)) : [];
    permissions.push({ _id: random.objectId(accountCreated), user: email, name, type, stores, createdAt });
    localUsers.push({
      _id: random.objectId(accountCreated),
      email,
      passwordHash,
      mustChangePassword: mustChange,
      createdAt: accountCreated,
      ...(mustChange ? {} : { passwordChangedAt: accountCreated }),
    });
    used.add(email);
  };

  DEMO_ACCOUNTS.forEach((account, i) => {
    add(
      account.email,
      account.name,
      account.type,
      addDays(ctx.reference, -400 + i),
      account.mustChangePassword ?? false,
    );
  });

  for (const [type, count] of ORDINARY_TIERS) {
    for (let i = 0; i < count; i++) {
      let name: string;
      let email: string;
      do {
        name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
        email = `${emailLocalPart(name)}@demo.local`;
      } while (used.has(email));
      // Roughly one in eight old accounts predates the createdAt field (shown as ' - ').
      const createdAt = random.chance(0.12) ? null : addDays(ctx.reference, -random.int(1, 700));
      add(email, name, type, createdAt, false);
    }
  }

  const uploaders = permissions
    .filter(
      (p) =>
        p.type === "USER BRONZE" || p.type === "USER SILVER" || p.type === "USER GOLD" || p.type === "SYSTEM ADMIN",
    )
    .map((p) => p.user);
  return { permissions, localUsers, uploaders };
}
