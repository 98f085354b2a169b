/**
 * The API's refusals as `application/problem+json` (RFC 9457): `type` names the kind of problem under the portal's
 * own address space (`/api/problems/<code>`, described on /api/docs), `title` and `detail` in the portal's language.
 */

export const PROBLEM_TYPE = "application/problem+json";

/** Every problem type the API answers (/api/docs describes each). */
export const PROBLEM_CODES = [
  "unauthorized",
  "forbidden",
  "read-only",
  "not-found",
  "method-not-allowed",
  "invalid",
  "conflict",
  "too-large",
  "unsupported-media-type",
  "too-many-requests",
  "upload-refused",
  "unavailable",
  "server-error",
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export type Problem = {
  code: ProblemCode;
  status: number;
  title: string;
  detail?: string;
  /** Further members (the rule that refused, the fields that failed). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

/** The members of a problem document (also what the host answers for the refusals it makes before routing). */
export function problemBody(problem: Problem, instance?: string): Record<string, unknown> {
  return {
    type: `/api/problems/${problem.code}`,
    title: problem.title,
    status: problem.status,
    ...(problem.detail ? { detail: problem.detail } : {}),
    ...(instance ? { instance } : {}),
    ...problem.extra,
  };
}

export function problemResponse(problem: Problem, instance?: string): Response {
  const body = problemBody(problem, instance);
  return new Response(JSON.stringify(body), {
    status: problem.status,
    headers: { "Content-Type": PROBLEM_TYPE, "Cache-Control": "no-store", ...problem.headers },
  });
}

/** A JSON answer of the API (never cached: every answer is one caller's). */
export function apiJson(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...init.headers },
  });
}
