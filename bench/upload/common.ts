/** Pieces shared by the upload benchmarks: a random source file, a multipart body over it, loopback requests. */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { Readable } from "node:stream";

export const MB = 1024 * 1024;

/** Writes `size` random bytes (one random MiB repeated) to `file`. */
export async function writeRandomFile(file: string, size: number): Promise<void> {
  const block = crypto.randomBytes(MB);
  const out = fs.createWriteStream(file);
  for (let written = 0; written < size; written += MB) {
    if (!out.write(written + MB <= size ? block : block.subarray(0, size - written)))
      await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((r) => out.end(r));
}

/** A multipart/form-data body with the file as the field `files`, streamed from disk; its headers and length. */
export function multipartUpload(source: string, size: number, fileName: string) {
  const boundary = `----bench${crypto.randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.length + size + tail.length,
    body: () =>
      Readable.from(
        (async function* () {
          yield head;
          for await (const chunk of fs.createReadStream(source, { highWaterMark: MB })) yield chunk as Buffer;
          yield tail;
        })(),
      ),
  };
}

export type LoopbackAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One request to 127.0.0.1:port with a streamed body; the whole answer. */
export function loopbackRequest(
  port: number,
  options: http.RequestOptions,
  body: () => Readable,
): Promise<LoopbackAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, ...options }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    body().pipe(req);
  });
}
