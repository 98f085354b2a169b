import { spawnSync } from "node:child_process";
import { DB_GC_FLAGS, DB_MALLOC_ENV, NODE_HARDENING_FLAGS } from "embedded-mongo/process";
import { describe, expect, it } from "vitest";
import { packageScripts, readDockerfile } from "#test/deploy/container-files";
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
});
