import { DB_GC_FLAGS, DB_MALLOC_ENV } from "embedded-mongo/process";
import { describe, expect, it } from "vitest";
import { packageScripts } from "#test/deploy/container-files";

/** npm scripts cannot import a constant, so they list the flags themselves; this keeps both lists equal (`npm start`: test/deploy/container-files.test.ts). */
const scripts = packageScripts();
const nodeFlagsOf = (script: string) =>
  script.split(/\s+/).filter((word) => word.startsWith("--") && !word.startsWith("--import"));

describe("node flags of the npm db script", () => {
  it("`npm run db` runs the database with DB_GC_FLAGS", () => {
    expect(nodeFlagsOf(scripts.db).filter((flag) => !flag.startsWith("--max-old-space-size"))).toEqual(DB_GC_FLAGS);
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
