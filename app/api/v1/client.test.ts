import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { paths } from "#test/api/openapi-types";
import { useTestDatabase } from "#test/db";
import { grantPermission, PRODUCT_HEADER, productLine, useTempDataDir } from "#test/upload-fixtures";
import { tokensAction } from "~/features/api-tokens/tokens.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { processNextJob } from "~/platform/import/worker-loop.server";
import { action, loader } from "~/routes/api.v1.$";
import { loader as openApiLoader } from "~/routes/api.v1.openapi[.json]";
import { API_TYPES_FILE, apiTypesSource } from "../../../scripts/api-types";
import { OPERATIONS } from "./all-operations.server";

/**
 * The OpenAPI document against the API: valid OpenAPI 3.1 by a validator made for it, an example on every operation,
 * and a client generated from it (openapi-typescript's types, openapi-fetch) that uploads a file and polls its job.
 */

const testDb = useTestDatabase();
useTempDataDir();

const ORIGIN = "http://localhost:3000";

/** openapi-fetch's fetch, answered by the route module in-process. */
async function inProcessFetch(request: Request): Promise<Response> {
  const splat = new URL(request.url).pathname.replace(/^\/api\/v1\/?/, "");
  const args = { request, params: { "*": splat }, context: {} };
  return request.method === "GET" ? loader(args as never) : action(args as never);
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const document = await (openApiLoader() as Response).json();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("has an example answer on every operation", () => {
    const missing = OPERATIONS.filter((o) => !Object.values(o.responses).some((r) => r.example !== undefined));
    expect(missing.map((o) => o.id)).toEqual([]);
  });

  it("matches the client types generated from it (npm run api:types)", async () => {
    expect(readFileSync(API_TYPES_FILE, "utf8")).toBe(await apiTypesSource());
  });
});

describe("a client generated from the document", () => {
  it("uploads a file and polls its job to the end", async () => {
    const email = "client@example.com";
    await grantPermission(await testDb.db(), email, "USER BRONZE");
    const user: AuthenticatedUser = { email, name: "Client", type: "USER BRONZE", sessionId: "s" };
    const created = (await tokensAction(
      user,
      new Request(`${ORIGIN}/user/tokens`, {
        method: "POST",
        body: new URLSearchParams({ intent: "create", name: "ERP", days: "30", scope: "write" }),
      }),
    )) as unknown as { data: { secret: string } };
    const client = createClient<paths>({
      baseUrl: ORIGIN,
      fetch: inProcessFetch,
      headers: { Authorization: `Bearer ${created.data.secret}` },
    });

    const datasets = await client.GET("/api/v1/datasets");
    expect(datasets.data?.data.map((d) => d.id)).toContain("product");

    const upload = await client.POST("/api/v1/uploads", {
      params: { query: { dataset: "product", filename: "produtos.csv" } },
      body: `${PRODUCT_HEADER}\n${productLine(1)}\n${productLine(2)}\n` as never,
      bodySerializer: (body) => body as unknown as string,
      headers: { "Content-Type": "text/csv" },
    });
    expect(upload.response.status).toBe(202);
    const id = upload.data?.id ?? "";

    let state = upload.data?.state;
    for (let i = 0; i < 5 && state !== "completed"; i++) {
      await processNextJob({ name: "client-test", progressIntervalMs: 50, leaseMs: 60_000 });
      const polled = await client.GET("/api/v1/jobs/{id}", { params: { path: { id } } });
      state = polled.data?.state;
    }
    expect(state).toBe("completed");

    const list = await client.GET("/api/v1/jobs", { params: { query: { state: "completed" } } });
    expect(list.data?.data.map((j) => j.id)).toEqual([id]);
    // Both rows loaded: the typed `outcome` says the job refused none.
    const outcome: "running" | "completed" | "completedWithRefusals" | "refused" | "failed" | undefined =
      list.data?.data[0]?.outcome;
    expect(outcome).toBe("completed");
    expect(list.data?.next).toBeNull();
  });
});
