import { describe, expect, it } from "vitest";
import { boundaryOf, readMultipart } from "./multipart.server";

async function collect(body: Buffer, boundary: string, chunkSize: number) {
  const chunks = (async function* () {
    for (let i = 0; i < body.length; i += chunkSize) yield body.subarray(i, i + chunkSize);
  })();
  const parts: Array<{ name: string; filename?: string; text: string }> = [];
  for await (const part of readMultipart(chunks, boundary)) {
    if (part.name === "skip") continue;
    const pieces: Buffer[] = [];
    for await (const c of part.data) pieces.push(c);
    parts.push({ name: part.name, filename: part.filename, text: Buffer.concat(pieces).toString("utf8") });
  }
  return parts;
}

describe("readMultipart", () => {
  it("splits parts correctly whatever the chunk boundaries", async () => {
    const form = new FormData();
    form.append("intent", "upload");
    form.append("skip", "ignored value\r\n--not a boundary");
    form.append("files", new Blob(["a;b\r\n1;2\r\n--x\r\n"]), "relatório.csv");
    form.append("files", new Blob([""]), "empty.csv");
    const request = new Request("http://x/", { method: "POST", body: form });
    const boundary = boundaryOf(request.headers.get("Content-Type"))!;
    const body = Buffer.from(await request.arrayBuffer());
    for (const size of [1, 2, 3, 7, 64, 100_000]) {
      expect(await collect(body, boundary, size)).toEqual([
        { name: "intent", filename: undefined, text: "upload" },
        { name: "files", filename: "relatório.csv", text: "a;b\r\n1;2\r\n--x\r\n" },
        { name: "files", filename: "empty.csv", text: "" },
      ]);
    }
  });

  it("rejects a truncated body", async () => {
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="files"; filename="a.csv"\r\n\r\nabc');
    await expect(collect(body, "b", 4)).rejects.toThrow(/ended inside a part/);
    expect(boundaryOf("text/plain")).toBeNull();
  });
});

describe("per-part header limit", () => {
  const part = (headerBytes: number) =>
    `--b\r\nContent-Disposition: form-data; name="files"; filename="a.csv"\r\nX-Pad: ${"p".repeat(headerBytes)}\r\n\r\nabc\r\n--b--\r\n`;

  it("refuses headers over 16 KB in one part, whether they arrive in one chunk or many", async () => {
    const body = Buffer.from(part(20_000));
    for (const size of [body.length, 65_536, 1000, 7])
      await expect(collect(body, "b", size)).rejects.toThrow(/part headers too large/);
  });

  it("checks each part on its own: a second part's long headers are refused after a small first part", async () => {
    const small = '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n';
    const body = Buffer.from(small + part(17_000).slice(0));
    await expect(collect(body, "b", body.length)).rejects.toThrow(/part headers too large/);
  });

  it("accepts headers just under the limit, in one chunk or many", async () => {
    const body = Buffer.from(part(16 * 1024 - 200));
    for (const size of [body.length, 5])
      expect(await collect(body, "b", size)).toEqual([{ name: "files", filename: "a.csv", text: "abc" }]);
  });
});
