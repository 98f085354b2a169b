import { expect } from "vitest";
import { tokensAction } from "~/features/api-tokens/tokens.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { action, loader } from "~/routes/scim.v2.$";
import { runWithClientAddress } from "~/shared/client-address.server";

/**
 * /scim/v2 called as a directory calls it, in-process through the route's loader and action: a token made on
 * /user/tokens, JSON bodies, the answer parsed. For the SCIM test files.
 */

export const ORIGIN = "http://localhost:3000";
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** A token's secret made through the tokens screen's action (`fields`: kind, scope…). */
export async function makeToken(user: AuthenticatedUser, fields: Record<string, string>): Promise<string> {
  const request = new Request(`${ORIGIN}/user/tokens`, {
    method: "POST",
    // A SCIM token's life is one of 90, 180, 365 days or "never"; a personal token's 1 to 365 days.
    body: new URLSearchParams({
      intent: "create",
      name: "Diretório",
      days: fields.kind === "scim" ? "90" : "30",
      ...fields,
    }),
  });
  const answer = (await tokensAction(user, request)) as unknown as { data: { secret?: string; error?: string } };
  if (!answer.data.secret) throw new Error(answer.data.error);
  return answer.data.secret;
}

/** A SCIM caller with `token()`'s secret (read when each call is made, so a token made in beforeAll is seen). */
export function scimCaller(token: () => string) {
  async function scim(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const method = init.method ?? "GET";
    const headers = new Headers({ Authorization: `Bearer ${init.token ?? token()}` });
    if (init.body !== undefined) headers.set("Content-Type", "application/scim+json");
    const request = new Request(`${ORIGIN}/scim/v2${path}`, {
      method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const splat = new URL(request.url).pathname.replace(/^\/scim\/v2\/?/, "");
    const args = { request, params: { "*": splat }, context: {} } as never;
    const response = await runWithClientAddress("198.51.100.9", () => (method === "GET" ? loader(args) : action(args)));
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  }

  async function createUser(email: string, displayName = "Pessoa") {
    const created = await scim("/Users", {
      method: "POST",
      body: {
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: "Pes", familyName: "Soa" },
        displayName,
        active: true,
      },
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; userName: string; active: boolean; groups: Array<{ display: string }> };
  }

  const patch = (path: string, Operations: unknown[]) =>
    scim(path, { method: "PATCH", body: { schemas: [PATCH_SCHEMA], Operations } });

  return { scim, createUser, patch };
}
