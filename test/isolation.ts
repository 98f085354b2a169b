import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Which unit test files must run in a process of their own (vitest.config.ts). A file that changes what other files
 * would see if they shared its process (the environment, globals, module mocks, spies, fake timers), or that holds
 * what a process holds (a data directory's lock, child processes), is isolated in the fork pool; every other file
 * shares its worker's modules in the thread pool, one process, so the portal's modules are imported once per worker
 * instead of once per file. (A data directory closed and reopened in one thread failed now and then to take its lock
 * again while other threads spawned processes.) The pattern reads each file's text when the config loads, so a new
 * file that mocks, stubs or spawns is isolated without a list to keep. What it cannot see is a file that writes into
 * another module's exported state; no file does.
 */
const NEEDS_OWN_PROCESS = /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers|resetModules)\b|process\.env\b|globalThis\.|\bdbPath\b|child_process/;

/** The files under `dirs` whose names match `name`, as paths from the repository's root, except under `skip`. */
function filesUnder(dirs: string[], name: RegExp, skip: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" || skip.includes(file) ? [] : walk(file);
      return name.test(entry.name) ? [file] : [];
    });
  return dirs.flatMap(walk);
}

export function isolatedFiles(dirs: string[], name: RegExp, skip: string[] = []): string[] {
  return filesUnder(dirs, name, skip).filter((file) => NEEDS_OWN_PROCESS.test(readFileSync(file, "utf8")));
}
