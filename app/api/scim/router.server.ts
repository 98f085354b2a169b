import { type RouteId, routeRule } from "~/access";
import { recordAudit } from "~/platform/audit/record.server";
import { authenticateToken } from "../auth.server";
import { getGroup, listGroups, patchGroup, replaceGroup } from "./groups.server";
import {
  listResponse,
  resourceTypes,
  SCIM_PREFIX,
  schemas,
  scimError,
  scimJson,
  serviceProviderConfig,
} from "./protocol";
import type { ScimCall } from "./requests.server";
import { createScimUser, deleteScimUser, getUser, listUsers, patchUser, replaceUser } from "./users.server";

/**
 * One request to `/scim/v2/*` (the route `routes/scim.v2.$`): a SCIM token first (401/429 as SCIM errors), then the
 * resource its path names. Every call past the token is an `apiCall` entry with the token's id; every change it makes
 * is an entry of its own, "via SCIM <token id>", with the token's administrator as the actor.
 */

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

async function jsonBody(request: Request): Promise<{ body: unknown } | { error: Response }> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/scim+json" && type !== "application/json")
    return { error: scimError(415, "Content-Type deve ser application/scim+json.", "invalidSyntax") };
  try {
    return { body: await request.json() };
  } catch {
    return { error: scimError(400, "JSON inválido.", "invalidSyntax") };
  }
}

async function route(call: ScimCall, request: Request, parts: string[], url: URL): Promise<Response> {
  const [resource, id, ...rest] = parts;
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (rest.length > 0) return scimError(404, "Recurso não encontrado.");
  let body: unknown;
  if (BODY_METHODS.has(method)) {
    const read = await jsonBody(request);
    if ("error" in read) return read.error;
    body = read.body;
  }
  const notAllowed = () => scimError(405, "Método não permitido neste recurso.");
  switch (resource) {
    case "ServiceProviderConfig":
      return method === "GET" && !id ? scimJson(serviceProviderConfig(call.base)) : notAllowed();
    case "ResourceTypes":
    case "Schemas": {
      if (method !== "GET") return notAllowed();
      const all: Array<{ id: string }> = resource === "Schemas" ? schemas(call.base) : resourceTypes(call.base);
      if (!id) return scimJson(listResponse(all, all.length, 1));
      const found = all.find((r) => r.id === id);
      return found ? scimJson(found) : scimError(404, "Recurso não encontrado.");
    }
    case "Users":
      if (!id)
        return method === "GET" ? listUsers(call, url) : method === "POST" ? createScimUser(call, body) : notAllowed();
      if (method === "GET") return getUser(call, id);
      if (method === "PUT") return replaceUser(call, id, body);
      if (method === "PATCH") return patchUser(call, id, body);
      if (method === "DELETE") return deleteScimUser(call, id);
      return notAllowed();
    case "Groups":
      if (!id)
        return method === "GET"
          ? listGroups(call, url)
          : scimError(403, "Os grupos são os tipos de permissão do portal: não se criam nem se excluem.");
      if (method === "GET") return getGroup(call, id, url);
      if (method === "PATCH") return patchGroup(call, id, body);
      if (method === "PUT") return replaceGroup(call, id, body, url);
      return scimError(403, "Os grupos são os tipos de permissão do portal: não se criam nem se excluem.");
    default:
      return scimError(404, "Recurso não encontrado.");
  }
}

/** `splat`: the path after /scim/v2/ as the router decoded it; `routeId`: the calling route's, a token route. */
export async function handleScimRequest(
  request: Request,
  splat: string | undefined,
  routeId: RouteId,
): Promise<Response> {
  if (routeRule(routeId).kind !== "token") throw new Error(`${routeId} is not a token route`);
  const authenticated = await authenticateToken(request, "scim");
  if ("problem" in authenticated) {
    const { problem } = authenticated;
    return scimError(problem.status, problem.detail ?? problem.title, undefined, problem.headers);
  }
  const { token, user } = authenticated.caller;
  const url = new URL(request.url);
  const call: ScimCall = {
    base: url.origin,
    actor: { email: user.email, name: `SCIM · ${token.name}`, type: user.type },
    via: `SCIM ${String(token._id)}`,
  };
  const parts = (splat ?? "").split("/").filter((p) => p.length > 0);
  const response = await route(call, request, parts, url);
  await recordAudit({
    actor: call.actor,
    event: "apiCall",
    object: { kind: "token", id: String(token._id), label: token.name },
    outcome: response.status < 400 ? "ok" : response.status < 500 ? "refused" : "failed",
    details: { method: request.method, path: url.pathname.slice(0, 200), status: response.status },
  });
  return response;
}

export { SCIM_PREFIX };
