import { ASSIGNABLE_TIERS, DEFAULT_TIER_FOR_NEW_USERS } from "~/access";
import { getConfig } from "~/config.server";
import type { ApiGuideFacts, ApiOperationDoc } from "~/features/api-tokens/api-guide-facts";
import {
  DEFAULT_TOKEN_DAYS,
  EXPIRY_WARNING_DAYS,
  MAX_TOKEN_DAYS,
  SCIM_TOKEN_LIVES,
} from "~/features/api-tokens/lifetimes";
import { MAX_LIVE_TOKENS, SCIM_TOKENS_PATH, TOKENS_PATH } from "~/features/api-tokens/tokens.server";
import { TOKEN_PREFIX, TOKEN_SCOPES } from "~/models/api-tokens.server";
import { JOB_STATES } from "~/models/file-jobs.server";
import { CSV_DELIMITERS, CSV_ENCODINGS } from "~/platform/import/readers.server";
import { PROBLEM_CODES } from "./problem.server";
import { scimBaseUrl } from "./scim/base-url.server";
import { DEFAULT_COUNT, groupIdOf, MAX_COUNT } from "./scim/protocol";
import { openApiDocument } from "./v1/openapi.server";
import { JOB_OUTCOMES } from "./v1/operations.server";

/**
 * /api/docs's content read from the code that does what it says: the OpenAPI document (paths, page parameters), the
 * CSV reader's delimiters and encodings, the SCIM groups (the assignable tiers), the problem types, the job outcomes,
 * the tokens' lives. The guide's words (features/api-tokens/guide-texts.ts) name each of these (app/api/guide.test.tsx
 * checks that none is missing).
 */

type Parameter = { name: string; in: string; required: boolean; description?: string; schema: unknown };
type OperationDoc = {
  operationId: string;
  summary: string;
  description: string;
  parameters: Parameter[];
  requestBody?: { description: string; content: Record<string, unknown> };
  responses: Record<string, { description: string; content: Record<string, { example?: unknown }> }>;
};
type Document = { paths: Record<string, Record<string, OperationDoc>> };

const document = () => openApiDocument() as Document;

function operationsOf(doc: Document) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** The path of an operation of the document, by its id: a guide naming an operation that is gone fails here. */
function pathOf(doc: Document, id: string): string {
  const found = operationsOf(doc).find((o) => o.operation.operationId === id);
  if (!found) throw new Error(`/api/docs names the operation ${id}, which the API does not have`);
  return found.path;
}

export function apiGuideFacts(): ApiGuideFacts {
  const doc = document();
  const origin = getConfig().origin;
  const upload = operationsOf(doc).find((o) => o.operation.operationId === "createUpload")?.operation;
  return {
    origin,
    tokens: {
      path: TOKENS_PATH,
      scimPath: SCIM_TOKENS_PATH,
      scopes: [...TOKEN_SCOPES],
      prefix: { ...TOKEN_PREFIX },
      defaultDays: DEFAULT_TOKEN_DAYS,
      maxDays: MAX_TOKEN_DAYS,
      scimLives: [...SCIM_TOKEN_LIVES],
      maxLive: MAX_LIVE_TOKENS,
      warningDays: [...EXPIRY_WARNING_DAYS],
    },
    upload: {
      datasets: pathOf(doc, "listDatasets"),
      uploads: pathOf(doc, "createUpload"),
      jobs: pathOf(doc, "listJobs"),
      job: pathOf(doc, "getJob"),
      refused: pathOf(doc, "getRefusedRows"),
      retry: pathOf(doc, "retryJob"),
      contentTypes: Object.keys(upload?.requestBody?.content ?? {}),
      jobStates: [...JOB_STATES],
      outcomes: [...JOB_OUTCOMES],
    },
    csv: { delimiters: [...CSV_DELIMITERS], encodings: [...CSV_ENCODINGS] },
    paging: {
      operations: operationsOf(doc)
        .filter((o) => o.operation.parameters.some((p) => p.name === "cursor"))
        .map((o) => ({
          method: o.method,
          path: o.path,
          limit: o.operation.parameters.find((p) => p.name === "limit")?.description ?? "",
        })),
      scimDefaultCount: DEFAULT_COUNT,
      scimMaxCount: MAX_COUNT,
    },
    problems: PROBLEM_CODES.map((code) => ({ code, type: `/api/problems/${code}` })),
    scim: {
      baseUrl: scimBaseUrl(),
      groups: ASSIGNABLE_TIERS.map((tier) => ({ name: tier, id: groupIdOf(tier) })),
      defaultGroup: DEFAULT_TIER_FOR_NEW_USERS,
      ssoOnly: getConfig().sso.mode !== "none",
    },
  };
}

/** Every operation of the document, in its order, with its parameters, answers and examples (the reference). */
export function apiOperationsReference(): ApiOperationDoc[] {
  return operationsOf(document()).map(({ method, path, operation }) => ({
    method,
    path,
    id: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    parameters: operation.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      description: p.description ?? "",
      schema: JSON.stringify(p.schema),
    })),
    body: operation.requestBody
      ? `${operation.requestBody.description} (${Object.keys(operation.requestBody.content).join(", ")})`
      : null,
    responses: Object.entries(operation.responses).map(([status, response]) => {
      const [type, content] = Object.entries(response.content)[0] ?? ["", {}];
      const example = content.example;
      return {
        status,
        description: response.description,
        type,
        example: example === undefined ? "" : typeof example === "string" ? example : JSON.stringify(example, null, 2),
      };
    }),
  }));
}
