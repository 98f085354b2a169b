import { createDeflate } from "node:zlib";
import { zipOf } from "../packages/xlsx-reader/test-support/zip-bombs";

/**
 * Decompression bombs made in the test, never stored. The ZIP and XLSX ones are the XLSX reader's
 * (packages/xlsx-reader/test-support/zip-bombs.ts); a DOCX and a PDF are made here.
 */
export {
  type BombEntry,
  SHEET_CLOSE,
  SHEET_OPEN,
  SST_OPEN,
  xlsxBomb,
  zipOf,
} from "../packages/xlsx-reader/test-support/zip-bombs";

const DOCX_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const DOCX_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** A minimal DOCX whose body is `paragraphs` paragraphs of "bomba" (word/document.xml about 39 bytes each). */
export function docxBomb(paragraphs: number): Promise<Buffer> {
  const open = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`;
  return zipOf([
    { name: "[Content_Types].xml", bytes: Buffer.from(DOCX_TYPES) },
    { name: "_rels/.rels", bytes: Buffer.from(DOCX_RELS) },
    {
      name: "word/document.xml",
      prefix: open,
      repeat: Buffer.from("<w:p><w:r><w:t>bomba</w:t></w:r></w:p>".repeat(1_000)),
      times: Math.ceil(paragraphs / 1_000),
      suffix: "</w:body></w:document>",
    },
  ]);
}

/**
 * A one-page PDF whose content stream (FlateDecode) shows one string of `megabytes` MB of "a"; with `hex`, the
 * deflated stream is written in hexadecimal (/ASCIIHexDecode first), which no count of zlib streams sees.
 */
export async function pdfBomb(megabytes: number, options: { hex?: boolean } = {}): Promise<Buffer> {
  const deflater = createDeflate({ level: 1 });
  const out: Buffer[] = [];
  deflater.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflater.on("end", resolve);
    deflater.on("error", reject);
  });
  const write = async (bytes: Buffer) => {
    if (!deflater.write(bytes)) await new Promise((resolve) => deflater.once("drain", resolve));
  };
  await write(Buffer.from("BT /F1 12 Tf 72 700 Td\n("));
  const block = Buffer.alloc(1024 * 1024, "a");
  for (let i = 0; i < megabytes; i++) await write(block);
  await write(Buffer.from(") Tj ET\n"));
  deflater.end();
  await ended;
  const deflated = Buffer.concat(out);
  const stream = options.hex ? Buffer.from(`${deflated.toString("hex")}>`) : deflated;
  const filter = options.hex ? "[/ASCIIHexDecode /FlateDecode]" : "/FlateDecode";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const parts = [Buffer.from("%PDF-1.4\n")];
  const offsets: number[] = [];
  let offset = parts[0].length;
  objects.forEach((object, i) => {
    const body =
      object === null
        ? Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length} /Filter ${filter} >>\nstream\n`),
            stream,
            Buffer.from("\nendstream\nendobj\n"),
          ])
        : Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`);
    offsets.push(offset);
    parts.push(body);
    offset += body.length;
  });
  const xref = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}
