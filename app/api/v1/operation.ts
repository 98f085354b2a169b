import { z } from "zod";
import type { AccessMode, RouteId } from "~/access";
import type { ApiCaller } from "../auth.server";

/**
 * What an operation of `/api/v1` is: the screen whose rule admits the caller (the owner's permission type as it stands
 * now, through app/access.ts), the zod schemas that validate its parameters and describe them in the OpenAPI document
 * (openapi.server.ts), one example answer at least, and its handler.
 */

export type ResponseSpec = {
  description: string;
  contentType?: string;
  schema?: z.ZodTypeAny;
  example?: unknown;
};

export type OperationContext = {
  request: Request;
  caller: ApiCaller;
  params: Record<string, string>;
  query: Record<string, unknown>;
};

export type Operation = {
  id: string;
  method: "GET" | "POST";
  /** OpenAPI path under /api/v1, with `{param}` segments. */
  path: string;
  summary: string;
  description: string;
  /** The screen whose rule admits the caller, and in which mode. */
  rule: { routeId: RouteId; mode: AccessMode; screen: string };
  /** Whether the token must be read-write. */
  writes: boolean;
  params?: z.AnyZodObject;
  query?: z.AnyZodObject;
  body?: { contentTypes: string[]; description: string };
  responses: Record<number, ResponseSpec>;
  run: (context: OperationContext) => Promise<Response>;
};

export const problemSchema = z
  .object({
    type: z.string().describe("O tipo do problema: /api/problems/<código>."),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
  })
  .passthrough();
