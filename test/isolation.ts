import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Which unit test files must run in a process of their own (vitest.config.ts). A file that changes what other files
 * would see if they shared its process (the environment, globals, module mocks, spies, fake timers), or that holds
 * what a process holds (a data directory's lock, child processes), is isolated in the fork pool; every other file
 * shares its worker's modules in the thread pool, one process, so the portal's modules are imported once per worker
 * instead of once per file. (A data directory closed and reopened in one thread failed now and then to take its lock
 * again while other threads spawned processes.) A file sets the environment directly or through `usePortalToday` (test/clock.ts). A file opens a data directory by naming `dbPath`, or through a
 * helper (test-helpers' withServer and startHarness) in a directory it makes with `mkdtemp`, so both count. The
 * pattern reads each file's text when the config loads, so a new
 * file that mocks, stubs or spawns is isolated without a list to keep. What it cannot see is a file that writes into
 * another module's exported state; no file does.
 */
const NEEDS_OWN_PROCESS =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers|resetModules)\b|process\.env\b|\busePortalToday\b|\b(start|use)InProcessPortal\b|globalThis\.|\bdbPath\b|\bmkdtemp|child_process/;

/**
 * The test files under `dirs` whose names match `name` (paths from the repository's root, nothing under
 * node_modules or `skip`), split into those that need a process of their own and those that can share one.
 */
export function splitByProcess(
  dirs: string[],
  name: RegExp,
  skip: string[] = [],
): { isolated: string[]; shared: string[] } {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" || skip.includes(file) ? [] : walk(file);
      return name.test(entry.name) ? [file] : [];
    });
  const isolated: string[] = [];
  const shared: string[] = [];
  for (const file of dirs.flatMap(walk))
    (NEEDS_OWN_PROCESS.test(readFileSync(file, "utf8")) ? isolated : shared).push(file);
  return { isolated, shared };
}
