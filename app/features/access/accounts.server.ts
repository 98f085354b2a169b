import { z } from "zod";
import {
  ADMIN_TIERS_PROTECTED,
  ASSIGNABLE_TIERS,
  DEFAULT_TIER_FOR_NEW_USERS,
  isPermissionType,
  isTier,
  type Tier,
} from "~/access";
import { accessContext, getConfig } from "~/config.server";
import { EMAIL_MAX_LENGTH, RESET_CODE_MAX_LENGTH } from "~/features/access/account-fields";
import {
  allowResetRequest,
  clearLoginFailures,
  reserveRecoveryAttempt,
  reserveSignInAttempt,
  settleAttempt,
} from "~/features/access/login-limit.server";
import { messages } from "~/messages";
import { listDashboards } from "~/models/dashboard-queries.server";
import { deleteSessionsOfUser } from "~/models/sessions.server";
import {
  countPermissionRows,
  DuplicateRecordError,
  deletePermissionRecord,
  findPermissionRecord,
  insertPermissionRecord,
  listPermissionRowsPage,
  pageOfListedUser,
  type UserRow,
  type UserRowsPage,
  updatePermissionType,
} from "~/models/user-permissions.server";
import { normalizeEmail } from "~/models/users.server";
import { type DashboardSummary, landingFor } from "~/navigation";
import {
  type AuditActorInput,
  actorByEmail,
  recordAudit,
  recordUserAdministration,
  recordUserChanged,
} from "~/platform/audit/record.server";
import { startSession } from "~/platform/auth/session.server";
import {
  getIdentityProvider,
  IdentityProviderError,
  type ProviderTokens,
  UserExistsError,
} from "~/services/identity.server";
import { newPasswordSchema } from "~/shared/password-schema";

/**
 * The account flows the login, recovery and user-administration screens call. Each returns a typed outcome
 * the screen maps to the spec's texts; none trusts the browser for anything but the form fields.
 */

export { UserExistsError };

const emailSchema = z.string().trim().min(1).max(EMAIL_MAX_LENGTH).email();

/** The tenant's dashboards, sorted by painelId (spec 000 §7 "the dashboards list for the tenant"). */
export async function listTenantDashboards(): Promise<DashboardSummary[]> {
  return (await listDashboards(getConfig().tenantId)).map((d) => ({
    painelId: d.painelId,
    panelLabel: d.panelLabel,
    panelType: d.panelType,
  }));
}

// ---------------------------------------------------------------------------------------------
// Sign-in

export type SignInOutcome =
  | { kind: "invalid" }
  | { kind: "rateLimited"; retryAfterSeconds: number }
  /** The identity provider throttled the request: not the user's fault, not counted as a failure. */
  | { kind: "providerBusy" }
  /** Credentials are right but the permission record has no type: CONTATE SEU ADMIN, no session. */
  | { kind: "noType" }
  | { kind: "newPasswordRequired"; challenge: string; email: string }
  | { kind: "signedIn"; redirectTo: string; sessionCookieHeaders: Headers };

/**
 * The login action's one call. `request`, when given, lets the new session replace the one of that request.
 */
export async function signInWithPassword(input: {
  email: string;
  password: string;
  ip?: string | null;
  request?: Request;
}): Promise<SignInOutcome> {
  const email = normalizeEmail(String(input.email ?? ""));
  const password = String(input.password ?? "");
  // An attempt held back while the global figure was past its ceiling says so in its entry, whatever its outcome.
  let slowed: { globalDelayMs?: number } = {};
  const audit = (outcome: "failed" | "refused", reason: string, details: Record<string, unknown> = {}) =>
    recordSignIn(email, "password", outcome, { reason, ...details, ...slowed }, input.ip);
  if (!email || !password) {
    if (email) await audit("failed", "missingPassword");
    return { kind: "invalid" };
  }
  // Reserved before the password is checked, so parallel attempts cannot all pass a count taken before any failed.
  const check = await reserveSignInAttempt({ email, ip: input.ip });
  if (!check.allowed) {
    await audit("refused", check.limit, { scope: check.scope, retryAfterSeconds: check.retryAfterSeconds });
    return { kind: "rateLimited", retryAfterSeconds: check.retryAfterSeconds };
  }
  if (check.globalDelayMs > 0) slowed = { globalDelayMs: check.globalDelayMs };

  const provider = getIdentityProvider();
  let result: Awaited<ReturnType<typeof provider.signIn>>;
  try {
    result = await provider.signIn(email, password);
  } catch (error) {
    await settleAttempt(check.reservation, "void");
    throw error;
  }
  if (result.kind === "throttled") {
    await settleAttempt(check.reservation, "void");
    await audit("failed", "providerBusy");
    return { kind: "providerBusy" };
  }
  if (result.kind === "invalid") {
    await audit("failed", "invalidCredentials");
    return { kind: "invalid" };
  }
  await settleAttempt(check.reservation, "success");
  if (result.kind === "newPasswordRequired") {
    await recordAudit({
      actor: await actorByEmail(email),
      ip: input.ip,
      event: "firstAccess",
      object: { kind: "user", id: email },
      outcome: "ok",
      details: { step: "newPasswordRequired", ...slowed },
    });
    return { kind: "newPasswordRequired", challenge: result.challengeSession, email };
  }

  const outcome = await signInVerifiedUser(email, result.tokens, input.request);
  await recordSignInOutcome(email, "password", outcome, input.ip, slowed);
  return outcome;
}

/** How a sign-in was proven: the password form, a SAML assertion or a Cognito federated id_token. */
export type SignInMethod = "password" | "saml" | "cognito-federated";

/** The audit entry of a sign-in attempt (the actor's name and type as the permission record holds them now). */
export async function recordSignIn(
  email: string,
  method: SignInMethod,
  outcome: "ok" | "failed" | "refused",
  details: Record<string, unknown> = {},
  ip?: string | null,
): Promise<void> {
  await recordAudit({
    actor: await actorByEmail(email),
    ip,
    event: "signIn",
    object: { kind: "user", id: email },
    outcome,
    details: { method, ...details },
  });
}

/** The entry of a verified sign-in's end: signed in, or refused for an empty type (CONTATE SEU ADMIN). */
export function recordSignInOutcome(
  email: string,
  method: SignInMethod,
  outcome: VerifiedSignInOutcome,
  ip?: string | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  return outcome.kind === "signedIn"
    ? recordSignIn(email, method, "ok", details, ip)
    : recordSignIn(email, method, "refused", { reason: "noType", ...details }, ip);
}

export type VerifiedSignInOutcome = Extract<SignInOutcome, { kind: "noType" } | { kind: "signedIn" }>;

/**
 * The end of every sign-in once the identity is proven (password above, SAML assertion, federated id_token):
 * reads the permission record, refuses an empty type (CONTATE SEU ADMIN, no session), otherwise starts a
 * session and answers the landing page of the type.
 */
export async function signInVerifiedUser(
  emailInput: string,
  tokens?: ProviderTokens,
  request?: Request,
  notOnOrAfter?: Date,
): Promise<VerifiedSignInOutcome> {
  const email = normalizeEmail(emailInput);
  const record = await findPermissionRecord(email);
  if (!record || !isPermissionType(record.type)) {
    if (tokens) await getIdentityProvider().signOut(tokens);
    return { kind: "noType" };
  }
  const dashboards = record.type === "SYSTEM ADMIN" || record.type === "USER GOLD" ? await listTenantDashboards() : [];
  const redirectTo = landingFor(record.type, dashboards, accessContext());
  const { headers } = await startSession(email, tokens, request, notOnOrAfter);
  return { kind: "signedIn", redirectTo, sessionCookieHeaders: headers };
}

// ---------------------------------------------------------------------------------------------
// First access and password reset

export type FieldErrors = Record<string, string[]>;

function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "");
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export type NewPasswordOutcome =
  | { kind: "ok" }
  | { kind: "invalidInput"; errors: FieldErrors }
  /** The first-access challenge expired or was already used: sign in again with the temporary password. */
  | { kind: "challengeExpired" }
  /** The identity provider is throttling requests: try again later. */
  | { kind: "providerBusy" }
  /** The provider refused; `message` is its own text, which the spec shows as is (000 §8). */
  | { kind: "error"; message: string };

/** First access: sets the new password; the screen then shows "Senha configurada!" and the user signs in again. */
export async function completeFirstAccess(input: {
  email: string;
  challenge: string;
  password: string;
  confirmPassword: string;
}): Promise<NewPasswordOutcome> {
  const parsed = newPasswordSchema.safeParse({ password: input.password, confirmPassword: input.confirmPassword });
  if (!parsed.success) return { kind: "invalidInput", errors: fieldErrors(parsed.error) };
  const email = normalizeEmail(String(input.email ?? ""));
  if (!email || !input.challenge) return { kind: "challengeExpired" };
  const audit = async (outcome: "ok" | "failed", reason?: string) =>
    recordAudit({
      actor: await actorByEmail(email),
      event: "passwordSet",
      object: { kind: "user", id: email },
      outcome,
      details: reason ? { via: "firstAccess", reason } : { via: "firstAccess" },
    });
  const result = await getIdentityProvider().completeNewPassword(email, String(input.challenge), parsed.data.password);
  if (result.kind === "invalid") {
    await audit("failed", "challengeExpired");
    return { kind: "challengeExpired" };
  }
  if (result.kind === "throttled") {
    await audit("failed", "providerBusy");
    return { kind: "providerBusy" };
  }
  if (result.kind === "error") {
    await audit("failed", "providerRefused");
    return result;
  }
  // Cognito signs the user in here; the spec asks for a fresh login, so its tokens are revoked.
  if (result.tokens) await getIdentityProvider().signOut(result.tokens);
  // A new password ends every session signed in with the old one.
  await deleteSessionsOfUser(email);
  await audit("ok");
  return { kind: "ok" };
}

export type ResetRequestOutcome =
  | { kind: "sent" }
  | { kind: "invalidInput"; errors: FieldErrors }
  | { kind: "error"; message: string };

/** The forgot-password dialog. Known and unknown e-mails get the same answer. */
export async function requestPasswordReset(input: { email: string }): Promise<ResetRequestOutcome> {
  const parsed = emailSchema.safeParse(input.email);
  if (!parsed.success) return { kind: "invalidInput", errors: { email: parsed.error.issues.map((i) => i.message) } };
  const email = normalizeEmail(parsed.data);
  const audit = async (outcome: "ok" | "failed" | "refused", reason?: string) =>
    recordAudit({
      actor: await actorByEmail(email),
      event: "passwordResetRequested",
      object: { kind: "user", id: email },
      outcome,
      details: reason ? { reason } : {},
    });
  if (!(await allowResetRequest(email))) {
    await audit("refused", "locked");
    return { kind: "sent" };
  }
  const result = await getIdentityProvider().forgotPassword(email);
  await (result.kind === "ok" ? audit("ok") : audit("failed", "providerRefused"));
  return result.kind === "ok" ? { kind: "sent" } : result;
}

export type ResetOutcome = NewPasswordOutcome | { kind: "rateLimited"; retryAfterSeconds: number };

/**
 * /recovery/{code}: on "error", show the provider's message in an info notice. `ip` is the client address (the
 * host's trusted-proxy view) for the per-address limit; every code attempt is reserved before the provider checks it.
 */
export async function confirmPasswordReset(input: {
  email: string;
  code: string;
  password: string;
  confirmPassword: string;
  ip?: string | null;
}): Promise<ResetOutcome> {
  const email = emailSchema.safeParse(input.email);
  const code = z.string().trim().min(1).max(RESET_CODE_MAX_LENGTH).safeParse(input.code);
  const passwords = newPasswordSchema.safeParse({ password: input.password, confirmPassword: input.confirmPassword });
  const errors: FieldErrors = {};
  if (!email.success) errors.email = email.error.issues.map((i) => i.message);
  if (!code.success) errors.code = code.error.issues.map((i) => i.message);
  if (!passwords.success) Object.assign(errors, fieldErrors(passwords.error));
  if (!email.success || !code.success || !passwords.success) return { kind: "invalidInput", errors };
  const normalized = normalizeEmail(email.data);
  let slowed: { globalDelayMs?: number } = {};
  const audit = async (outcome: "ok" | "failed" | "refused", details: Record<string, unknown> = {}) =>
    recordAudit({
      actor: await actorByEmail(normalized),
      ip: input.ip,
      event: "passwordReset",
      object: { kind: "user", id: normalized },
      outcome,
      details: { ...details, ...slowed },
    });
  const check = await reserveRecoveryAttempt(input.ip);
  if (!check.allowed) {
    await audit("refused", { reason: check.limit, scope: check.scope, retryAfterSeconds: check.retryAfterSeconds });
    return { kind: "rateLimited", retryAfterSeconds: check.retryAfterSeconds };
  }
  if (check.globalDelayMs > 0) slowed = { globalDelayMs: check.globalDelayMs };
  let result: Awaited<ReturnType<ReturnType<typeof getIdentityProvider>["confirmForgotPassword"]>>;
  try {
    result = await getIdentityProvider().confirmForgotPassword(normalized, code.data, passwords.data.password);
  } catch (error) {
    await settleAttempt(check.reservation, "void");
    throw error;
  }
  if (result.kind === "error") {
    await audit("failed", { reason: "codeRefused" });
    return result;
  }
  await settleAttempt(check.reservation, "success");
  await clearLoginFailures(normalized, input.ip);
  // Whoever held a session with the old password loses it.
  await deleteSessionsOfUser(normalized);
  await audit("ok");
  return { kind: "ok" };
}

// ---------------------------------------------------------------------------------------------
// User administration (spec 000 §2 "User administration", §4, §6)

export type ConfiguredUser = UserRow & { type: Tier };

/**
 * Which page of a user list to read (1-based; a missing or unknown value means the first page of 20), and the
 * e-mail search it is narrowed to (case-insensitive, anywhere in the address).
 */
export type UserListPaging = { page?: number; pageSize?: number; email?: string };

export type UserListPage<Row extends UserRow = UserRow> = Omit<UserRowsPage, "rows"> & { rows: Row[] };

function pagingOf(paging: UserListPaging) {
  return { page: paging.page ?? 1, pageSize: paging.pageSize ?? 20, emailContains: paging.email };
}

/** How many users the four tiers hold, whatever a search narrows the list to. */
export function countTierUsers(): Promise<number> {
  return countPermissionRows(ASSIGNABLE_TIERS);
}

/** The page of the four tiers' listing (both user lists show it) on which `email` stands, or null when not listed. */
export function pageOfTierUser(email: string, pageSize: number): Promise<number | null> {
  return pageOfListedUser(ASSIGNABLE_TIERS, email, pageSize);
}

/** /user/config: one page of the users of the four tiers only, sorted by user, within the 10000 listing limit. */
export async function listConfiguredUsers(paging: UserListPaging = {}): Promise<UserListPage<ConfiguredUser>> {
  return (await listPermissionRowsPage(ASSIGNABLE_TIERS, pagingOf(paging))) as UserListPage<ConfiguredUser>;
}

/**
 * /user/permission: one page of the users of the four tiers (spec 000 §6: "The user listing is filtered to the
 * types USER EXPLORER, USER BRONZE, USER SILVER and USER GOLD") — nothing else: neither the administrative
 * accounts nor an account without a type (docs/decisions.md, "Access").
 */
export async function listUsersForPermissionGrid(paging: UserListPaging = {}): Promise<UserListPage> {
  return listPermissionRowsPage(ASSIGNABLE_TIERS, pagingOf(paging));
}

export type CreateUserOutcome =
  | { kind: "created"; email: string }
  | { kind: "invalidInput"; errors: FieldErrors }
  /** Nothing was created (provider throttled, mail not sent); `message` says so in Portuguese. */
  | { kind: "failed"; message: string };

const CREATE_FAILURE_MESSAGES: Record<Exclude<IdentityProviderError["reason"], "invalidInput">, string> = {
  mailFailed: messages.createUserMailFailed,
  throttled: messages.createUserBusy,
};

/**
 * Creates the permission record with DEFAULT_TIER_FOR_NEW_USERS, then the account at the identity provider
 * (temporary password by e-mail). All or nothing:
 * - the record goes first, so its unique index decides a race before the provider is asked, and an
 *   interrupted creation leaves a listed user the admin can delete rather than hidden credentials;
 * - when the provider refuses (duplicate, throttling, mail not sent) the record is removed again, and the
 *   provider itself keeps nothing. A duplicate (either side) throws UserExistsError.
 * With `ssoOnly` (a user a directory provisions while single sign-on is on) there is no provider account: the user
 * signs in through single sign-on only, with no password and no temporary-password e-mail.
 */
export async function createUser(
  emailInput: string,
  createdBy: string,
  /** Who, for the audit trail (name and type at that moment); by default the record of `createdBy`. */
  actor?: AuditActorInput,
  /** `via`: through what the change came (SCIM: its token), kept in each audit entry's details. */
  options: { via?: string; ssoOnly?: boolean } = {},
): Promise<CreateUserOutcome> {
  const parsed = emailSchema.safeParse(emailInput);
  if (!parsed.success) return { kind: "invalidInput", errors: { email: parsed.error.issues.map((i) => i.message) } };
  const email = normalizeEmail(parsed.data);
  const audit = async (outcome: "ok" | "failed", details: Record<string, unknown>) =>
    recordUserAdministration(actor ?? (await actorByEmail(createdBy)), "userCreated", email, outcome, {
      ...viaOf(options),
      ...details,
    });
  try {
    await insertPermissionRecord({
      user: email,
      name: email.split("@")[0],
      type: DEFAULT_TIER_FOR_NEW_USERS,
      stores: [],
      createdAt: new Date(),
      createdBy: normalizeEmail(createdBy),
    });
  } catch (error) {
    if (error instanceof DuplicateRecordError) {
      await audit("failed", { reason: "exists" });
      throw new UserExistsError(email);
    }
    throw error;
  }
  try {
    if (!options.ssoOnly) await getIdentityProvider().adminCreateUser(email);
  } catch (error) {
    await deletePermissionRecord(email);
    await audit("failed", {
      reason:
        error instanceof UserExistsError ? "exists" : error instanceof IdentityProviderError ? error.reason : "error",
    });
    if (!(error instanceof IdentityProviderError)) throw error;
    console.warn(
      JSON.stringify({
        level: "warn",
        msg: "accounts.createUser.failed",
        reason: error.reason,
        cause: errorText(error.cause),
      }),
    );
    if (error.reason === "invalidInput") return { kind: "invalidInput", errors: { email: [messages.invalidEmail] } };
    return { kind: "failed", message: CREATE_FAILURE_MESSAGES[error.reason] };
  }
  await audit("ok", { type: DEFAULT_TIER_FOR_NEW_USERS, ...(options.ssoOnly ? { signIn: "sso" } : {}) });
  return { kind: "created", email };
}

const viaOf = (options: { via?: string }) => (options.via ? { via: options.via } : {});

function errorText(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : String(error).slice(0, 200);
}

export type DeleteUserOutcome = { kind: "deleted" } | { kind: "notFound" } | { kind: "protectedUser" };

/**
 * Deletes a configured user — one of the four tiers /user/config lists — from the provider and the records, and
 * ends their sessions. Administrative accounts are protected; a user without a type is not on that list, so it is
 * not found here.
 */
export async function deleteUser(
  emailInput: string,
  /** Who, for the audit trail. */
  actor?: AuditActorInput,
  /** Also a user without a type (SCIM: a directory deletes the users it deactivated); `via` as for createUser. */
  options: { withoutType?: boolean; via?: string } = {},
): Promise<DeleteUserOutcome> {
  const email = normalizeEmail(String(emailInput ?? ""));
  if (!email) return { kind: "notFound" };
  const audit = (outcome: "ok" | "refused", details: Record<string, unknown>) =>
    recordUserAdministration(actor, "userDeleted", email, outcome, { ...viaOf(options), ...details });
  const record = await findPermissionRecord(email);
  if (!record) {
    await audit("refused", { reason: "notFound" });
    return { kind: "notFound" };
  }
  if ((ADMIN_TIERS_PROTECTED as readonly string[]).includes(record.type)) {
    await audit("refused", { reason: "protectedUser", type: record.type });
    return { kind: "protectedUser" };
  }
  if (!isTier(record.type) && !(options.withoutType && record.type === "")) {
    await audit("refused", { reason: "notFound" });
    return { kind: "notFound" };
  }
  await getIdentityProvider().adminDeleteUser(email);
  await deletePermissionRecord(email);
  await deleteSessionsOfUser(email);
  await audit("ok", { type: record.type, name: record.name ?? null });
  return { kind: "deleted" };
}

export type SetTierOutcome =
  | { kind: "saved" }
  | { kind: "invalidTier" }
  | { kind: "unknownUser" }
  | { kind: "protectedUser" };

/** /user/permission: only the four tiers, only known non-administrative users; records who and when. */
export async function setUserTier(
  emailInput: string,
  tier: unknown,
  changedBy: string,
  /** Who, for the audit trail; by default the record of `changedBy`. */
  actor?: AuditActorInput,
): Promise<SetTierOutcome> {
  if (!isTier(tier)) return { kind: "invalidTier" };
  const email = normalizeEmail(String(emailInput ?? ""));
  const record = email ? await findPermissionRecord(email) : null;
  const refused = async (reason: string) =>
    email
      ? void (await recordUserChanged(
          actor ?? (await actorByEmail(changedBy)),
          email,
          { type: record?.type ?? null },
          { type: tier },
          "refused",
          { reason },
        ))
      : undefined;
  if (!record) {
    await refused("unknownUser");
    return { kind: "unknownUser" };
  }
  if ((ADMIN_TIERS_PROTECTED as readonly string[]).includes(record.type)) {
    await refused("protectedUser");
    return { kind: "protectedUser" };
  }
  // The grid lists the four tiers only: a user outside them is not one it can change.
  if (!isTier(record.type)) {
    await refused("unknownUser");
    return { kind: "unknownUser" };
  }
  const ok = await updatePermissionType(email, tier, ASSIGNABLE_TIERS, changedBy, new Date());
  if (!ok) {
    await refused("protectedUser");
    return { kind: "protectedUser" };
  }
  // The user signs in again to get the new tier's landing, menu and pages (every open session ends now).
  await deleteSessionsOfUser(email);
  await recordUserChanged(actor ?? (await actorByEmail(changedBy)), email, { type: record.type }, { type: tier });
  return { kind: "saved" };
}
