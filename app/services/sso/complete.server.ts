import { isPermissionType, landingFor } from "~/access";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { listDashboards } from "~/models/dashboard-queries.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { createUserSession } from "~/session.server";
import type { SsoIdentity } from "./sso.server";

/**
 * After a verified single sign-on, the same steps as the password login: read the permission
 * record, refuse an account without a type (CONTATE SEU ADMIN), start the session and land by type.
 * It uses the same building blocks as the password login (permission record, landingFor,
 * createUserSession); when app/auth.server.ts exports that login's completion helper, this body
 * becomes one call to it.
 */
export async function completeSsoSignIn(
  request: Request,
  identity: SsoIdentity,
  extraHeaders?: HeadersInit,
): Promise<{ response: Response } | { error: string }> {
  const record = await findPermissionRecord(identity.email);
  if (!record || !isPermissionType(record.type)) return { error: messages.contactAdmin };
  const config = getConfig();
  const dashboards = await listDashboards(config.tenantId);
  const landing = landingFor(record.type, dashboards, config.features);
  const response = await createUserSession(request, record.user, landing);
  for (const [key, value] of new Headers(extraHeaders).entries()) response.headers.append(key, value);
  return { response };
}
