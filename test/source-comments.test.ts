import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Comments say what the code does and why, for a reader of the code as it is now; a tracker's number (the word "issue" and a number)
 * sends that reader elsewhere and goes stale. This reads every source file of the portal (app, server, packages,
 * test, scripts, bench, and the configuration files at the root) and lists each line that carries such a tag.
 * Recorded benchmark results (bench/…/results) are outputs, not source.
 */
const root = path.resolve(__dirname, "..");
const FOLDERS = ["app", "server", "packages", "test", "scripts", "bench"];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css|py|md)$/;
const SKIPPED_DIRS = new Set(["node_modules", "build", "dist", "results"]);
const SELF = "test/source-comments.test.ts";
const ISSUE_TAG = /\bissues? ?#?\d+/i;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) out.push(...sourceFiles(rel));
    } else if (SOURCE.test(entry.name)) out.push(rel);
  }
  return out;
}

/** The configuration files at the root (vitest.config.ts, remix.config.js, …); its documents are not source. */
function rootConfigFiles(): string[] {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => entry.name);
}

describe("source comments", () => {
  it("carry no issue-tracker tags", () => {
    const files = [...FOLDERS.flatMap(sourceFiles), ...rootConfigFiles()].filter((file) => file !== SELF);
    expect(files.length).toBeGreaterThan(500);
    const tagged: string[] = [];
    for (const file of files) {
      const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (ISSUE_TAG.test(line)) tagged.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(tagged, `${tagged.length} lines carry an issue tag`).toEqual([]);
  });
});
