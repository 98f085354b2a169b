import type { z } from "zod";
import { canAccessRoute, type RouteId, routeRule } from "~/access";
import { accessContext } from "~/config.server";
import { apiTexts } from "~/features/api-tokens/texts";
import { recordAudit } from "~/platform/audit/record.server";
import { type ApiCaller, authenticateToken } from "../auth.server";
import { type Problem, problemResponse } from "../problem.server";
import { OPERATIONS } from "./all-operations.server";
import type { Operation } from "./operation";

/**
 * One request to `/api/v1/*` (the route `routes/api.v1.$`): the token first (401/429 before anything else is said), then
 * the operation its method and path name (404/405), the rule of the operation's screen for the owner's type as it
 * stands now and the token's scope (403), its parameters through its zod schemas (400/404), and then the operation.
 * Every call that got past the token is an entry of the audit trail with the token's id, written before the answer.
 */

export const API_PREFIX = "/api/v1";

type Match = { operation: Operation; params: Record<string, string> };

function segmentsOf(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

const compiled = OPERATIONS.map((operation) => ({ operation, segments: segmentsOf(operation.path) }));

/** The operations at `path` (any method), with the path's parameters. */
function matchPath(path: string): Match[] {
  const parts = segmentsOf(path);
  const found: Match[] = [];
  for (const { operation, segments } of compiled) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = segments.every((segment, i) => {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (name) {
        params[name] = parts[i];
        return true;
      }
      return segment === parts[i];
    });
    if (ok) found.push({ operation, params });
  }
  return found;
}

function issuesOf(error: z.ZodError, where: "query" | "path"): Array<{ in: string; name: string; message: string }> {
  return error.issues.map((issue) => ({ in: where, name: String(issue.path[0] ?? ""), message: issue.message }));
}

const outcomeOf = (status: number) => (status < 400 ? "ok" : status < 500 ? "refused" : "failed");

async function audited(caller: ApiCaller, request: Request, operation: string | null, response: Response) {
  await recordAudit({
    actor: caller.user,
    event: "apiCall",
    object: { kind: "token", id: String(caller.token._id), label: caller.token.name },
    outcome: outcomeOf(response.status),
    details: {
      method: request.method,
      path: new URL(request.url).pathname.slice(0, 200),
      operation,
      status: response.status,
    },
  });
  return response;
}

/** `splat`: the path after /api/v1/ as the router decoded it; `routeId`: the calling route's, a token route. */
export async function handleApiRequest(
  request: Request,
  splat: string | undefined,
  routeId: RouteId,
): Promise<Response> {
  if (routeRule(routeId).kind !== "token") throw new Error(`${routeId} is not a token route`);
  const instance = new URL(request.url).pathname.slice(0, 200);
  const answer = (problem: Problem) => problemResponse(problem, instance);
  const authenticated = await authenticateToken(request, "personal");
  if ("problem" in authenticated) return answer(authenticated.problem);
  const { caller } = authenticated;
  const method = request.method === "HEAD" ? "GET" : request.method;
  const matches = matchPath(splat ?? "");
  const match = matches.find((m) => m.operation.method === method);
  if (!match) {
    const problem: Problem =
      matches.length > 0
        ? {
            code: "method-not-allowed",
            status: 405,
            title: apiTexts.methodNotAllowed,
            headers: { Allow: [...new Set(matches.map((m) => m.operation.method))].join(", ") },
          }
        : { code: "not-found", status: 404, title: apiTexts.notFound, detail: apiTexts.notFoundPath };
    return audited(caller, request, null, answer(problem));
  }
  const { operation } = match;
  if (!canAccessRoute(caller.user.type, operation.rule.routeId, accessContext(), operation.rule.mode))
    return audited(
      caller,
      request,
      operation.id,
      answer({
        code: "forbidden",
        status: 403,
        title: apiTexts.forbidden,
        detail: apiTexts.forbiddenRule(operation.rule.screen),
        extra: { rule: operation.rule.screen },
      }),
    );
  if (operation.writes && caller.token.scope !== "write")
    return audited(caller, request, operation.id, answer({ code: "read-only", status: 403, title: apiTexts.readOnly }));
  const params = operation.params ? operation.params.safeParse(match.params) : null;
  if (params && !params.success)
    return audited(caller, request, operation.id, answer({ code: "not-found", status: 404, title: apiTexts.notFound }));
  const query = operation.query
    ? operation.query.safeParse(Object.fromEntries(new URL(request.url).searchParams))
    : null;
  if (query && !query.success)
    return audited(
      caller,
      request,
      operation.id,
      answer({
        code: "invalid",
        status: 400,
        title: apiTexts.invalid,
        extra: { errors: issuesOf(query.error, "query") },
      }),
    );
  const response = await operation.run({
    request,
    caller,
    params: (params?.data as Record<string, string>) ?? {},
    query: (query?.data as Record<string, unknown>) ?? {},
  });
  return audited(caller, request, operation.id, response);
}
