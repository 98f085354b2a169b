import { spawnSync } from "node:child_process";
import { DB_GC_FLAGS, DB_MALLOC_ENV, NODE_HARDENING_FLAGS } from "embedded-mongo/process";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { packageScripts, readDockerfile } from "#test/deploy/container-files";
import { docxToHtml } from "~/features/reports-and-financial/documents-viewer.server";
import { extractDocumentText } from "~/platform/import/document-text.server";
import { readXlsxRowsOnThread } from "~/shared/excel/xlsx-thread.server";
import { zipOf } from "../packages/xlsx-reader/test-support/zip-bombs";

/** npm scripts cannot import a constant, so they list the flags themselves; this keeps both lists equal (`npm start`: test/deploy/container-files.test.ts). */
const scripts = packageScripts();
const nodeFlagsOf = (script: string) =>
  script.split(/\s+/).filter((word) => word.startsWith("--") && !word.startsWith("--import"));

describe("node flags of the npm db script", () => {
  it("`npm run db` runs the database with NODE_HARDENING_FLAGS and DB_GC_FLAGS", () => {
    expect(nodeFlagsOf(scripts.db).filter((flag) => !flag.startsWith("--max-old-space-size"))).toEqual([
      ...NODE_HARDENING_FLAGS,
      ...DB_GC_FLAGS,
    ]);
  });

  it("`npm run db` runs the database with DB_MALLOC_ENV", () => {
    const assignments = Object.fromEntries(
      scripts.db
        .split(/\s+/)
        .filter((word) => /^[A-Z_]+=/.test(word))
        .map((word) => word.split("=")),
    );
    expect(assignments).toEqual(DB_MALLOC_ENV);
  });
});

describe("--disable-proto=throw in every process", () => {
  const PROTO = "--disable-proto=throw";

  it("every npm script that runs the portal's code runs node or tsx with it, and the tests run under it", () => {
    for (const name of ["dev", "start", "worker", "worker:prod", "portal", "demo", "seed", "db:indexes", "db"]) {
      const runs = scripts[name].split("&&").filter((part) => /\b(node|tsx)\s/.test(part));
      expect(runs.length, name).toBeGreaterThan(0);
      for (const part of runs) expect(part.split(/\s+/), name).toContain(PROTO);
    }
    for (const name of ["test", "test:unit", "test:e2e", "test:db", "test:conformance"]) {
      const runs = scripts[name].split("&&").filter((part) => /\bvitest\s/.test(part));
      expect(runs.length, name).toBeGreaterThan(0);
      for (const part of runs) expect(part.trim(), name).toMatch(new RegExp(`^NODE_OPTIONS=${PROTO} vitest `));
    }
  });

  it("the image's runtime sets it for every node process (NODE_OPTIONS)", () => {
    const runtime = readDockerfile().find((stage) => stage.name === "runtime");
    const env = runtime?.lines.filter((line) => /^(ENV|\s)/.test(line)).join(" ") ?? "";
    expect(env).toContain(`NODE_OPTIONS=${PROTO}`);
  });

  it("holds in this test process and in what it starts: a read of __proto__ throws", () => {
    expect(() => (Object.create(Object.prototype) as { __proto__: unknown }).__proto__).toThrow(/disable-proto/);
    const child = spawnSync(process.execPath, ["-e", "({}).__proto__"], { encoding: "utf8" });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain("ERR_PROTO_ACCESS");
  });

  it("the dependencies that set __proto__ as they load (React's legacy server renderer, mammoth) load under it", () => {
    // scripts/patch-proto-setters.mjs rewrites those statements at install (npm's postinstall).
    const child = spawnSync(
      process.execPath,
      [PROTO, "-e", "require('react-dom/server'); require('mammoth'); console.log('loaded')"],
      { encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
    );
    expect(child.stderr).toBe("");
    expect(child.stdout.trim()).toBe("loaded");
  });

  it("holds on the XLSX reader's worker thread (a module file the process starts): a tag naming __proto__ throws there", async () => {
    const file = await zipOf([
      { name: "xl/workbook.xml", bytes: Buffer.from('<workbook><sheets><sheet __proto__="x"/></sheets></workbook>') },
      {
        name: "xl/worksheets/sheet1.xml",
        bytes: Buffer.from('<worksheet><sheetData><row r="1"/></sheetData></worksheet>'),
      },
    ]);
    const read = async () => {
      for await (const _row of readXlsxRowsOnThread(file));
    };
    await expect(read()).rejects.toThrow(/disable-proto/);
  });

  /** A DOCX whose paragraph has an attribute named __proto__ (mammoth's XML reader sets it on an object). */
  async function docxNamingProto(): Promise<Buffer> {
    const zip = new JSZip();
    zip.file(
      "[Content_Types].xml",
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ' +
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
    zip.file(
      "_rels/.rels",
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="word/document.xml" ' +
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>',
    );
    zip.file(
      "word/document.xml",
      '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
        '<w:body><w:p __proto__="x"><w:r><w:t>oi</w:t></w:r></w:p></w:body></w:document>',
    );
    return zip.generateAsync({ type: "nodebuffer" });
  }

  it("holds on the viewer's and the explorer's worker threads (module files the process starts): a DOCX tag naming __proto__ throws there", async () => {
    const file = await docxNamingProto();
    await expect(docxToHtml(file)).rejects.toThrow(/disable-proto/);
    await expect(extractDocumentText("docx", file)).rejects.toThrow(/disable-proto/);
  });
});
