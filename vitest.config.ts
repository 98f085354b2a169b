import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

// Unit and integration tests. Browser tests (test/e2e) have their own config.

const ROOTS = ["app", "server", "packages", "test", "scripts"];

/** Every unit test file, as a path from the repository's root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || file === path.join("test", "e2e") ? [] : testFiles(file);
    return /\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/**
 * A file that changes what other files would see if they shared its process (the environment, globals, module
 * mocks, spies, fake timers) runs in a fresh module graph of its own; every other file shares its worker's
 * modules with the files before it. Importing the portal's modules again for each of 140 files was half the
 * suite's time: 184 s with every file isolated, 98 s with these 42 alone (2026-11-26).
 */
const CHANGES_SHARED_STATE = /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers|resetModules)\b|process\.env\b|globalThis\./;
const isolated = ROOTS.flatMap(testFiles).filter((file) => CHANGES_SHARED_STATE.test(readFileSync(file, "utf8")));

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    setupFiles: ["test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single one on a 2-core machine. Many files wait on
    // servers in other processes (the embedded database, s3rver, SMTP), so one per core ran the suite in 158 s
    // against 263 s.
    maxWorkers: "100%",
    poolOptions: { threads: { isolate: false } },
    projects: [
      { extends: true, test: { name: "isolated", include: isolated } },
      {
        extends: true,
        test: {
          name: "shared",
          include: ROOTS.map((root) => `${root}/**/*.test.{ts,tsx}`),
          exclude: ["**/node_modules/**", "build", "test/e2e/**", ...isolated],
          // Isolation is a setting of the pool, not of the project: these files take the thread pool, set to share.
          pool: "threads",
        },
      },
    ],
  },
});
