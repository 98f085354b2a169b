import { describe, expect, it } from "vitest";
import {
  type ApiAnswer,
  type BytesResult,
  REGISTER_API,
  S3_API,
  type Transport,
  uploadToLocalStore,
  uploadToS3,
} from "./upload-transport";

/**
 * The browser transport's protocol, against a scripted network (no browser here: the transport
 * takes its request functions as a parameter). app/features/uploads-and-jobs/routes.test.ts runs the same code
 * against the real routes and the fake bucket.
 */

type JsonCall = { url: string; payload: Record<string, unknown> };
type BytesCall = {
  method: string;
  url: string;
  body: Blob | FormData;
  headers?: Record<string, string>;
  signal: AbortSignal;
  onProgress?: (loaded: number, total: number) => void;
};

function scripted(options: {
  json: (
    call: JsonCall,
  ) => Promise<{ status: number; body: ApiAnswer | null }> | { status: number; body: ApiAnswer | null };
  bytes?: (call: BytesCall) => Promise<BytesResult> | BytesResult;
}) {
  const log: string[] = [];
  const jsonCalls: JsonCall[] = [];
  const bytesCalls: BytesCall[] = [];
  const transport: Transport = {
    postJson: async (url, payload) => {
      const call = { url, payload: payload as Record<string, unknown> };
      jsonCalls.push(call);
      const intent = call.payload.intent as string | undefined;
      log.push(
        url === REGISTER_API
          ? "register"
          : `${intent}${Array.isArray(call.payload.partNumbers) ? `:${call.payload.partNumbers.join(",")}` : ""}`,
      );
      return options.json(call);
    },
    sendBytes: async (method, url, body, opts) => {
      const call = { method, url, body, ...opts };
      bytesCalls.push(call);
      log.push(`${method} ${url}`);
      if (options.bytes) return options.bytes(call);
      const size = body instanceof Blob ? body.size : 0;
      opts.onProgress?.(size, size);
      return { status: 200, body: null, etag: `"etag-${url}"` };
    },
  };
  return { transport, log, jsonCalls, bytesCalls };
}

const ok = (body: Record<string, unknown>) => ({ status: 200, body: { ok: true, ...body } });
const file = (size: number, name = "vendas.csv") => new File(["x".repeat(size)], name, { type: "text/csv" });

/** The server side of a multipart plan: part URLs carry the part number and how often it was signed. */
function multipartServer(
  plan: { partSize: number; partCount: number },
  overrides: Partial<Record<string, (call: JsonCall) => { status: number; body: ApiAnswer | null }>> = {},
) {
  const signed = new Map<number, number>();
  return (call: JsonCall) => {
    const key = call.url === REGISTER_API ? "register" : String(call.payload.intent);
    const override = overrides[key];
    if (override) return override(call);
    if (key === "create")
      return ok({ mode: "multipart", bucket: "b", key: "2026/01/k.csv", ticket: "ticket-1", uploadId: "u-1", ...plan });
    if (key === "sign-parts") {
      const numbers = call.payload.partNumbers as number[];
      return ok({
        parts: numbers.map((n) => {
          signed.set(n, (signed.get(n) ?? 0) + 1);
          return { partNumber: n, url: `part${n}-v${signed.get(n)}` };
        }),
      });
    }
    return ok({});
  };
}

describe("uploadToS3, single presigned PUT", () => {
  it("sends the file with the headers the server signed, reports progress, then registers it", async () => {
    const net = scripted({
      json: ({ url, payload }) =>
        payload.intent === "create"
          ? ok({
              mode: "single",
              bucket: "b",
              key: "2026/01/k.csv",
              ticket: "ticket-1",
              url: "https://put",
              headers: { "Content-Type": "text/csv", "x-amz-tagging": "pending=1" },
            })
          : url === REGISTER_API
            ? ok({ id: "1" })
            : { status: 500, body: null },
      bytes: ({ onProgress }) => {
        onProgress?.(2, 4);
        onProgress?.(4, 4);
        return { status: 200, body: null, etag: '"e"' };
      },
    });
    const progress: Array<[number, number]> = [];
    const outcome = await uploadToS3(file(4), (l, t) => progress.push([l, t]), "journey", net.transport).promise;
    expect(outcome).toEqual({ ok: true });
    expect(net.log).toEqual(["create", "PUT https://put", "register"]);
    expect(net.jsonCalls[0].payload).toEqual({
      intent: "create",
      fileName: "vendas.csv",
      size: 4,
      contentType: "text/csv",
    });
    expect(net.bytesCalls[0].headers).toEqual({ "Content-Type": "text/csv", "x-amz-tagging": "pending=1" });
    expect(progress).toEqual([
      [2, 4],
      [4, 4],
      [4, 4],
    ]);
    expect(net.jsonCalls[1]).toEqual({
      url: REGISTER_API,
      payload: {
        clientName: "journey",
        originalName: "vendas.csv",
        srcBucket: "b",
        srcKey: "2026/01/k.csv",
        ticket: "ticket-1",
      },
    });
  });

  it("reports the server's reason: COD.2 for a refused create or transfer, the register answer's code, COD.3 by default", async () => {
    const refused = scripted({
      json: () => ({ status: 413, body: { ok: false, code: "COD.2", detail: "Arquivo maior que o limite de 2 GB." } }),
    });
    expect(await uploadToS3(file(4), () => undefined, undefined, refused.transport).promise).toEqual({
      ok: false,
      code: "COD.2",
      detail: "Arquivo maior que o limite de 2 GB.",
    });

    const single = ok({ mode: "single", bucket: "b", key: "k", ticket: "t", url: "https://put", headers: {} });
    const failedPut = scripted({ json: () => single, bytes: () => ({ status: 403, body: null, etag: null }) });
    expect(await uploadToS3(file(4), () => undefined, undefined, failedPut.transport).promise).toEqual({
      ok: false,
      code: "COD.2",
    });
    expect(failedPut.log).not.toContain("register");

    const missing = scripted({
      json: ({ url }) =>
        url === REGISTER_API
          ? { status: 409, body: { ok: false, code: "COD.2", detail: "O arquivo não chegou ao armazenamento." } }
          : single,
    });
    expect(await uploadToS3(file(4), () => undefined, undefined, missing.transport).promise).toMatchObject({
      ok: false,
      code: "COD.2",
    });

    const registration = scripted({ json: ({ url }) => (url === REGISTER_API ? { status: 500, body: null } : single) });
    expect(await uploadToS3(file(4), () => undefined, undefined, registration.transport).promise).toEqual({
      ok: false,
      code: "COD.3",
    });
    expect(registration.log).not.toContain("abort"); // nothing open: the server deletes the object itself
  });
});

describe("uploadToS3, multipart", () => {
  it("signs each part just before sending it, reports progress across parts, completes with the ETags and registers", async () => {
    const net = scripted({ json: multipartServer({ partSize: 4, partCount: 3 }) });
    const progress: number[] = [];
    const outcome = await uploadToS3(
      file(10),
      (loaded, total) => {
        expect(total).toBe(10);
        progress.push(loaded);
      },
      "journey",
      net.transport,
    ).promise;
    expect(outcome).toEqual({ ok: true });
    expect(net.log).toEqual([
      "create",
      "sign-parts:1",
      "PUT part1-v1",
      "sign-parts:2",
      "PUT part2-v1",
      "sign-parts:3",
      "PUT part3-v1",
      "complete",
      "register",
    ]);
    expect(net.bytesCalls.map((c) => (c.body as Blob).size)).toEqual([4, 4, 2]);
    expect(await (net.bytesCalls[2].body as Blob).text()).toBe("xx");
    expect(progress).toEqual([4, 8, 10, 10]);
    expect(net.jsonCalls.find((c) => c.payload.intent === "complete")?.payload).toEqual({
      intent: "complete",
      ticket: "ticket-1",
      parts: [1, 2, 3].map((n) => ({ partNumber: n, etag: `"etag-part${n}-v1"` })),
    });
  });

  it("re-signs a part once when its URL is refused with 403 (expired), then goes on", async () => {
    const net = scripted({
      json: multipartServer({ partSize: 4, partCount: 2 }),
      bytes: ({ url, body }) =>
        url === "part2-v1"
          ? { status: 403, body: null, etag: null }
          : { status: 200, body: null, etag: `"${url}-${(body as Blob).size}"` },
    });
    expect(await uploadToS3(file(8), () => undefined, undefined, net.transport).promise).toEqual({ ok: true });
    expect(net.log).toEqual([
      "create",
      "sign-parts:1",
      "PUT part1-v1",
      "sign-parts:2",
      "PUT part2-v1",
      "sign-parts:2",
      "PUT part2-v2",
      "complete",
      "register",
    ]);
  });

  it("gives up after the second refusal, and aborts the multipart upload on the server", async () => {
    const net = scripted({
      json: multipartServer({ partSize: 4, partCount: 2 }),
      bytes: ({ url }) =>
        url.startsWith("part2") ? { status: 403, body: null, etag: null } : { status: 200, body: null, etag: '"e"' },
    });
    expect(await uploadToS3(file(8), () => undefined, undefined, net.transport).promise).toEqual({
      ok: false,
      code: "COD.2",
    });
    expect(net.log.slice(3)).toEqual(["sign-parts:2", "PUT part2-v1", "sign-parts:2", "PUT part2-v2", "abort"]);
    expect(net.jsonCalls.at(-1)?.payload).toEqual({ intent: "abort", ticket: "ticket-1" });
  });

  it("aborts the multipart upload when the server refuses the completion (over the limit)", async () => {
    const net = scripted({
      json: multipartServer(
        { partSize: 4, partCount: 2 },
        {
          complete: () => ({
            status: 413,
            body: { ok: false, code: "COD.2", detail: "Arquivo maior que o limite de 8 bytes." },
          }),
        },
      ),
    });
    expect(await uploadToS3(file(8), () => undefined, undefined, net.transport).promise).toEqual({
      ok: false,
      code: "COD.2",
      detail: "Arquivo maior que o limite de 8 bytes.",
    });
    expect(net.log.slice(-2)).toEqual(["complete", "abort"]);
  });

  it("cancel stops the part being sent and aborts the multipart upload on the server before settling", async () => {
    let partTwoStarted!: () => void;
    const started = new Promise<void>((resolve) => (partTwoStarted = resolve));
    const net = scripted({
      json: multipartServer({ partSize: 4, partCount: 3 }),
      bytes: ({ url, signal }) => {
        if (url !== "part2-v1") return { status: 200, body: null, etag: '"e"' };
        partTwoStarted();
        return new Promise<BytesResult>((resolve) =>
          signal.addEventListener("abort", () => resolve({ aborted: true })),
        );
      },
    });
    const handle = uploadToS3(file(10), () => undefined, undefined, net.transport);
    await started;
    handle.abort();
    expect(await handle.promise).toEqual({ ok: false, aborted: true });
    expect(net.bytesCalls[1].signal.aborted).toBe(true);
    expect(net.log).toEqual(["create", "sign-parts:1", "PUT part1-v1", "sign-parts:2", "PUT part2-v1", "abort"]);
    expect(net.jsonCalls.at(-1)).toEqual({ url: S3_API, payload: { intent: "abort", ticket: "ticket-1" } });
  });

  it("cancel while the upload is being created still aborts the multipart upload that the server opened", async () => {
    let answerCreate!: () => void;
    const createAnswered = new Promise<void>((resolve) => (answerCreate = resolve));
    const server = multipartServer({ partSize: 4, partCount: 2 });
    const net = scripted({
      json: async (call) => {
        if (call.payload.intent === "create") await createAnswered;
        return server(call);
      },
    });
    const handle = uploadToS3(file(8), () => undefined, undefined, net.transport);
    handle.abort();
    answerCreate();
    expect(await handle.promise).toEqual({ ok: false, aborted: true });
    expect(net.log).toEqual(["create", "abort"]);
  });
});

describe("uploadToLocalStore", () => {
  it("posts the file as the `files` field with progress, and cancel aborts the request", async () => {
    const net = scripted({
      json: () => ({ status: 500, body: null }),
      bytes: ({ body, onProgress }) => {
        expect((body as FormData).get("files")).toBeInstanceOf(File);
        onProgress?.(5, 10);
        return { status: 200, body: { ok: true, files: [] }, etag: null };
      },
    });
    const progress: number[] = [];
    expect(await uploadToLocalStore(file(10), (l) => progress.push(l), net.transport).promise).toEqual({ ok: true });
    expect(net.log).toEqual(["POST /api/upload"]);
    expect(progress).toEqual([5]);

    const hanging = scripted({
      json: () => ({ status: 500, body: null }),
      bytes: ({ signal }) =>
        new Promise<BytesResult>((resolve) => signal.addEventListener("abort", () => resolve({ aborted: true }))),
    });
    const handle = uploadToLocalStore(file(10), () => undefined, hanging.transport);
    handle.abort();
    expect(await handle.promise).toEqual({ ok: false, aborted: true });

    const refused = scripted({
      json: () => ({ status: 500, body: null }),
      bytes: () => ({ status: 500, body: { ok: false, code: "COD.3" }, etag: null }),
    });
    expect(await uploadToLocalStore(file(10), () => undefined, refused.transport).promise).toEqual({
      ok: false,
      code: "COD.3",
    });
  });
});
