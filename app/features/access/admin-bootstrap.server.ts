import { z } from "zod";
import { getConfig } from "~/config.server";
import { findLocalUser, insertLocalUser } from "~/models/local-users.server";
import {
  DuplicateRecordError,
  deletePermissionRecord,
  findPermissionRecord,
  insertPermissionRecord,
} from "~/models/user-permissions.server";
import { normalizeEmail } from "~/models/users.server";
import { recordUserAdministration } from "~/platform/audit/record.server";
import { generateTemporaryPassword } from "~/services/identity/local.server";
import { getIdentityProvider } from "~/services/identity.server";
import { hashPassword } from "~/services/password-hash.server";

/**
 * The first administrator of a new installation (`portal create-admin --email …`): a SYSTEM ADMIN permission record
 * and an account at the identity provider. With the local provider the temporary password is returned to the
 * operator at the terminal (the mail may not be set up yet) and must be changed at the first sign-in; with Cognito
 * the pool e-mails it, as for any created user.
 */
export type CreateAdminOutcome =
  | { kind: "created"; email: string; temporaryPassword?: string }
  | { kind: "exists"; email: string; type: string }
  | { kind: "invalidEmail" };

const emailSchema = z.string().trim().email().max(254);

export async function createAdmin(emailInput: string, createdBy = "cli"): Promise<CreateAdminOutcome> {
  const parsed = emailSchema.safeParse(emailInput);
  if (!parsed.success) return { kind: "invalidEmail" };
  const email = normalizeEmail(parsed.data);
  const existing = await findPermissionRecord(email);
  if (existing) return { kind: "exists", email, type: existing.type || "(no type)" };
  const config = getConfig();
  if (config.identity.provider === "local" && (await findLocalUser(email)))
    return { kind: "exists", email, type: "(credentials without a permission record)" };
  try {
    await insertPermissionRecord({
      user: email,
      name: email.split("@")[0],
      type: "SYSTEM ADMIN",
      stores: [],
      createdAt: new Date(),
      createdBy,
    });
  } catch (error) {
    if (error instanceof DuplicateRecordError) return { kind: "exists", email, type: "SYSTEM ADMIN" };
    throw error;
  }
  // The operator's shell has no portal account: the audit trail names the command.
  const audit = () =>
    recordUserAdministration(
      { email: createdBy, name: "portal create-admin", type: null },
      "userCreated",
      email,
      "ok",
      {
        type: "SYSTEM ADMIN",
      },
    );
  try {
    if (config.identity.provider === "local") {
      const temporaryPassword = generateTemporaryPassword();
      await insertLocalUser({
        email,
        passwordHash: await hashPassword(temporaryPassword),
        mustChangePassword: true,
        createdAt: new Date(),
      });
      await audit();
      return { kind: "created", email, temporaryPassword };
    }
    await getIdentityProvider().adminCreateUser(email);
    await audit();
    return { kind: "created", email };
  } catch (error) {
    await deletePermissionRecord(email);
    throw error;
  }
}
