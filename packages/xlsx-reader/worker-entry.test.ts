import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { XLSX_WORKER_BUILT, xlsxWorkerFile } from "./worker-entry";

/** Whoever starts the reader's worker gets a module file: the built one from a bundle, the sources' loader else. */

const build = mkdtempSync(path.join(os.tmpdir(), "xlsx-worker-"));
afterAll(() => rmSync(build, { recursive: true, force: true }));

/** `files` created under the fake build folder (empty: only their place matters). */
function place(...files: string[]): void {
  for (const file of files) {
    mkdirSync(path.dirname(path.join(build, file)), { recursive: true });
    writeFileSync(path.join(build, file), "");
  }
}

const from = (file: string) => pathToFileURL(path.join(build, file)).href;

describe("xlsxWorkerFile", () => {
  it("from the package's sources, is worker-dev.mjs beside them, which loads worker.ts through tsx", () => {
    const file = fileURLToPath(xlsxWorkerFile());
    expect(file).toBe(fileURLToPath(new URL("./worker-dev.mjs", import.meta.url)));
  });

  it("from a bundle in build/host, is the built worker beside it", () => {
    place(`host/${XLSX_WORKER_BUILT}`, "host/index.js");
    expect(xlsxWorkerFile(from("host/chunk-ABC.js")).href).toBe(from(`host/${XLSX_WORKER_BUILT}`));
  });

  it("from the Remix server's build (build/server/assets), is the one in build/host", () => {
    place("server/index.js", "server/assets/server-build-XYZ.js");
    expect(xlsxWorkerFile(from("server/assets/server-build-XYZ.js")).href).toBe(from(`host/${XLSX_WORKER_BUILT}`));
    expect(xlsxWorkerFile(from("server/index.js")).href).toBe(from(`host/${XLSX_WORKER_BUILT}`));
  });

  it("fails naming where it looked when there is none", () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "xlsx-no-worker-"));
    try {
      expect(() => xlsxWorkerFile(pathToFileURL(path.join(empty, "a", "b.js")).href)).toThrow(
        /the XLSX reader's worker is missing \(looked for .*xlsx-reader-worker\.js/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
