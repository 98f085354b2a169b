// Screen: API description: /api/v1/openapi.json, the OpenAPI 3.1 document of /api/v1 (public).
import { openApiDocument } from "~/api/v1/openapi.server";

/** Generated from the operations' zod schemas (app/api/v1/openapi.server.ts). */
export function loader() {
  return new Response(JSON.stringify(openApiDocument(), null, 2), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
