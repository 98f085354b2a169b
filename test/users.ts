import { insertLocalUser } from "~/models/local-users.server";
import { insertPermissionRecord } from "~/models/user-permissions.server";
import type { PermissionType } from "~/models/users.server";
import { hashPassword } from "~/services/password-hash.server";

/**
 * A maker of local users for a test file: each call adds `<prefix><n>@example.com` with the password (hashed once,
 * or a hash the file computed beforehand) and, unless withRecord is false, a permission record of `type` named
 * `<name> <n>`; it returns the e-mail.
 */
export function userMaker(
  options: { prefix: string; name: string } & ({ password: string } | { passwordHash: () => string }),
) {
  let counter = 0;
  let hash: Promise<string> | undefined;
  return async function makeUser(
    type: PermissionType | "",
    extra: { mustChangePassword?: boolean; withRecord?: boolean } = {},
  ): Promise<string> {
    const n = ++counter;
    const email = `${options.prefix}${n}@example.com`;
    hash ??= "password" in options ? hashPassword(options.password) : Promise.resolve(options.passwordHash());
    await insertLocalUser({
      email,
      passwordHash: await hash,
      mustChangePassword: extra.mustChangePassword ?? false,
      createdAt: new Date(),
    });
    if (extra.withRecord !== false) {
      await insertPermissionRecord({
        user: email,
        name: `${options.name} ${n}`,
        type,
        stores: [],
        createdAt: new Date(),
      });
    }
    return email;
  };
}
