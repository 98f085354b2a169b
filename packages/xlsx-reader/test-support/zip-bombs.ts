import { crc32, createDeflateRaw } from "node:zlib";

/**
 * Decompression bombs made in the test, never stored: a ZIP whose entries are given as their inflated content,
 * either bytes or a `repeat` of one block many times (deflated as a stream, so a gigabyte of it costs the test about
 * a megabyte and a second or two, never the gigabyte).
 */
export type BombEntry =
  | { name: string; bytes: Buffer }
  | { name: string; prefix?: string; repeat: Buffer; times: number; suffix?: string };

async function deflate(entry: BombEntry): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflater = createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  deflater.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflater.on("end", resolve);
    deflater.on("error", reject);
  });
  let crc = 0;
  let size = 0;
  const write = async (bytes: Buffer) => {
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflater.write(bytes)) await new Promise((resolve) => deflater.once("drain", resolve));
  };
  if ("bytes" in entry) await write(entry.bytes);
  else {
    if (entry.prefix) await write(Buffer.from(entry.prefix));
    for (let i = 0; i < entry.times; i++) await write(entry.repeat);
    if (entry.suffix) await write(Buffer.from(entry.suffix));
  }
  deflater.end();
  await ended;
  return { data: Buffer.concat(out), crc: crc >>> 0, size };
}

/** A ZIP (DEFLATE, sizes in the local headers) of `entries`, in that order. Sizes must stay below 4 GB. */
export async function zipOf(entries: BombEntry[]): Promise<Buffer> {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const { data, crc, size } = await deflate(entry);
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, data);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Plan1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
const SHEET_CLOSE = `</sheetData></worksheet>`;

/** A minimal XLSX: one sheet of `sheetRows` (its <row> elements), the shared strings and any extra parts given. */
export function xlsxBomb(
  options: { sheetRows?: BombEntry; sharedStrings?: BombEntry; extra?: BombEntry[] } = {},
): Promise<Buffer> {
  const sheet: BombEntry = options.sheetRows
    ? { ...options.sheetRows, name: "xl/worksheets/sheet1.xml" }
    : {
        name: "xl/worksheets/sheet1.xml",
        bytes: Buffer.from(`${SHEET_OPEN}<row r="1"><c r="A1" t="s"><v>0</v></c></row>${SHEET_CLOSE}`),
      };
  const shared = options.sharedStrings ?? {
    name: "xl/sharedStrings.xml",
    bytes: Buffer.from(
      `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>ok</t></si></sst>`,
    ),
  };
  return zipOf([
    { name: "[Content_Types].xml", bytes: Buffer.from(CONTENT_TYPES) },
    { name: "_rels/.rels", bytes: Buffer.from(ROOT_RELS) },
    { name: "xl/workbook.xml", bytes: Buffer.from(WORKBOOK) },
    { name: "xl/_rels/workbook.xml.rels", bytes: Buffer.from(WORKBOOK_RELS) },
    { ...shared, name: "xl/sharedStrings.xml" },
    ...(options.extra ?? []),
    sheet,
  ]);
}

export const SST_OPEN = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`;
export { SHEET_CLOSE, SHEET_OPEN };
