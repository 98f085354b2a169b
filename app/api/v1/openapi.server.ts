import type { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { apiTexts } from "~/features/api-tokens/texts";
import { OPERATIONS } from "./all-operations.server";
import { type Operation, problemSchema, type ResponseSpec } from "./operation";
import { API_PREFIX } from "./router.server";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the operations' own zod schemas (the ones that validate each
 * request), so it cannot say something the API does not do. Built once per process.
 */

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodTypeAny): JsonSchema {
  const { $schema: _dialect, ...rest } = zodToJsonSchema(schema, {
    target: "jsonSchema2019-09",
    $refStrategy: "none",
  }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.AnyZodObject | undefined, where: "path" | "query"): JsonSchema[] {
  if (!schema) return [];
  const object = schemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const PROBLEM_RESPONSES: Record<number, ResponseSpec> = {
  401: { description: apiTexts.unauthorized, schema: problemSchema },
  403: { description: apiTexts.forbidden, schema: problemSchema },
  429: { description: apiTexts.tooMany, schema: problemSchema },
};

function responseOf(spec: ResponseSpec, status: number): JsonSchema {
  const contentType = spec.contentType ?? (status >= 400 ? "application/problem+json" : "application/json");
  const example =
    spec.example ?? (status >= 400 ? { type: "/api/problems/example", title: spec.description, status } : undefined);
  return {
    description: spec.description,
    ...(status === 429 ? { headers: { "Retry-After": { schema: { type: "integer" } } } } : {}),
    content: {
      [contentType]: {
        schema: spec.schema ? schemaOf(spec.schema) : { type: "string" },
        ...(example !== undefined ? { example } : {}),
      },
    },
  };
}

function operationOf(operation: Operation): JsonSchema {
  const responses = { ...PROBLEM_RESPONSES, ...operation.responses };
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: `${operation.description}\n\n${apiTexts.docsRule}: ${operation.rule.screen}${operation.writes ? " (token de leitura e escrita)" : ""}.`,
    parameters: [...parametersOf(operation.params, "path"), ...parametersOf(operation.query, "query")],
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            description: operation.body.description,
            content: Object.fromEntries(
              operation.body.contentTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
            ),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, spec]) => [status, responseOf(spec, Number(status))]),
    ),
  };
}

let built: JsonSchema | undefined;

export function openApiDocument(): JsonSchema {
  if (built) return built;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    const path = `${API_PREFIX}${operation.path}`;
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = operationOf(operation);
  }
  built = {
    openapi: "3.1.0",
    info: {
      title: apiTexts.docsTitle,
      version: "1.0.0",
      description: `${apiTexts.docsIntro} /api/v1/openapi.json. ${apiTexts.docsAuth}`,
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
  return built;
}
