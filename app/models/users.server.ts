import type { ObjectId } from "mongodb";
import type { PermissionType } from "~/shared/permissions";
import type { IndexDeclaration } from "./indexes";

/**
 * Users: the permission record of spec 000 §3 (the portal's own), and, for the local identity
 * provider only, the credentials record. Cognito keeps credentials itself.
 */

export const USER_PERMISSIONS = "user_permissions";
export const LOCAL_USERS = "local_users";

export { PERMISSION_TYPES, type PermissionType } from "~/shared/permissions";

/** spec 000 §3 "User permission record": user (the e-mail), name, type, stores, createdAt. */
export type UserPermissionRecord = {
  _id?: ObjectId;
  user: string;
  name: string;
  /** "" when the account has no permission type (the login then shows CONTATE SEU ADMIN). */
  type: PermissionType | "";
  stores: string[];
  createdAt: Date | null;
  updatedAt?: Date;
  updatedBy?: string;
};

/** Credentials of the local identity provider. */
export type LocalUserRecord = {
  _id?: ObjectId;
  email: string;
  passwordHash: string;
  /** Set for an admin-created user until the first password change (NEW_PASSWORD_REQUIRED). */
  mustChangePassword: boolean;
  createdAt: Date;
  passwordChangedAt?: Date;
};

export const indexes: IndexDeclaration[] = [
  { collection: USER_PERMISSIONS, key: { user: 1 }, options: { unique: true, name: "user_unique" } },
  { collection: USER_PERMISSIONS, key: { type: 1, user: 1 }, options: { name: "type_user" } },
  { collection: LOCAL_USERS, key: { email: 1 }, options: { unique: true, name: "email_unique" } },
];

/** E-mails are compared lower-cased and trimmed everywhere. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
