import { isPermissionType, TOKEN_ADMIN_TYPE } from "~/access";
import { getConfig } from "~/config.server";
import { countApiTokenFailure } from "~/features/access/login-limit.server";
import { apiTexts } from "~/features/api-tokens/texts";
import {
  type ApiTokenRecord,
  findApiTokenBySecret,
  noteApiTokenUsed,
  type TokenKind,
} from "~/models/api-tokens.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { recordAudit } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { currentClientAddress } from "~/shared/client-address.server";
import type { Problem } from "./problem.server";

/**
 * Who calls the API: the token in `Authorization: Bearer <token>` and, for a personal token, its owner with the
 * permission type the owner has NOW (read on every call, like a session: a demoted or removed owner's tokens lose what
 * the owner lost at once). Cookies are never read here, so the API needs no CSRF rule and a browser's session opens
 * nothing under /api/v1.
 */

export type ApiCaller = { user: AuthenticatedUser; token: ApiTokenRecord };

const BEARER = /^Bearer[ \t]+([A-Za-z0-9_\-.~+/]+=*)[ \t]*$/i;

const unauthorized = (title: string, detail: string = apiTexts.unauthorizedDetail): Problem => ({
  code: "unauthorized",
  status: 401,
  title,
  detail,
  headers: { "WWW-Authenticate": 'Bearer realm="journey-portal"' },
});

/** The refusal is also an entry of the trail: failed checks are counted by the limit, so they cannot flood it. */
async function refused(problem: Problem, token: ApiTokenRecord | null, reason: string): Promise<{ problem: Problem }> {
  await recordAudit({
    actor: token?.owner ? { email: token.owner } : null,
    event: "apiCall",
    object: token ? { kind: "token", id: String(token._id), label: token.name } : null,
    outcome: "refused",
    details: { reason },
  });
  return { problem };
}

/** The caller behind a request's token of `kind`, or the problem to answer (401, 429). */
export async function authenticateToken(
  request: Request,
  kind: TokenKind,
): Promise<{ caller: ApiCaller } | { problem: Problem }> {
  if (!getConfig().apiTokens) return { problem: unauthorized(apiTexts.disabled, apiTexts.disabled) };
  const match = BEARER.exec(request.headers.get("Authorization") ?? "");
  if (!match) return { problem: unauthorized(apiTexts.unauthorized) };
  // The token first (one indexed lookup of its hash): only a failure is counted against the address, so a valid
  // token passes whatever its pace and whatever others behind the same address sent.
  const token = await findApiTokenBySecret(match[1]);
  if (!token || token.kind !== kind) {
    const check = await countApiTokenFailure(currentClientAddress());
    if (!check.allowed)
      return refused(
        {
          code: "too-many-requests",
          status: 429,
          title: apiTexts.tooMany,
          detail: apiTexts.tooManyDetail(check.retryAfterSeconds),
          headers: { "Retry-After": String(check.retryAfterSeconds) },
        },
        null,
        check.limit,
      );
    return refused(unauthorized(apiTexts.unauthorized), null, "unknownToken");
  }
  // A real token that no longer works (revoked, expired, its owner gone) is no guess: not counted.
  if (token.revokedAt) return refused(unauthorized(apiTexts.revoked), token, "revoked");
  if (token.expiresAt && token.expiresAt.getTime() <= Date.now())
    return refused(unauthorized(apiTexts.expired), token, "expired");
  // A personal token acts as its owner; a SCIM token works while the one who made it is still SCIM's administrator.
  const holder = token.kind === "personal" ? token.owner : token.createdBy;
  const record = holder ? await findPermissionRecord(holder) : null;
  if (!record || !isPermissionType(record.type) || (token.kind === "scim" && record.type !== TOKEN_ADMIN_TYPE))
    return refused(unauthorized(apiTexts.ownerGone, apiTexts.ownerGone), token, "ownerGone");
  await noteApiTokenUsed(token);
  return {
    caller: {
      user: { email: record.user, name: record.name ?? "", type: record.type, sessionId: `token:${String(token._id)}` },
      token,
    },
  };
}
