import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every worker thread of the product runs a module file (its .ts through a dev loader from the sources, a file of
 * build/host once built), never source text: no `new Worker(text, { eval: true })`, no function's `toString()` sent
 * to a thread. Read from the syntax of every module in app/, packages/ and server/ outside the tests.
 */
const root = path.resolve(__dirname, "..");
const isTestCode = (file: string) => /\.(test|e2e|fixture)\.tsx?$|\/test-support\/|\/conformance\//.test(file);

function productFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "build") out.push(...productFiles(rel));
    } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !isTestCode(rel)) out.push(rel);
  }
  return out;
}

type WorkerStart = { file: string; line: number; first: string; evaluated: boolean };

/** Every `new Worker(…)` of `file`, and every `eval: true` property there (as a start that evaluates text). */
function workerStarts(file: string): WorkerStart[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: WorkerStart[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && node.expression.getText() === "Worker") {
      const [first, options] = node.arguments ?? [];
      const literal = first !== undefined && (ts.isStringLiteralLike(first) || ts.isTemplateExpression(first));
      const textual =
        first !== undefined && (literal || ts.isBinaryExpression(first) || /toString\(\)/.test(first.getText()));
      found.push({
        file,
        line: lineOf(node),
        first: first?.getText() ?? "",
        evaluated: textual || /\beval\b/.test(options?.getText() ?? ""),
      });
    } else if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === "eval" &&
      node.initializer.kind !== ts.SyntaxKind.FalseKeyword
    )
      found.push({ file, line: lineOf(node), first: "", evaluated: true });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("worker threads start from module files", () => {
  const starts = ["app", "packages", "server"].flatMap(productFiles).flatMap(workerStarts);

  it("no worker is started from source text (eval, a string, a function's toString())", () => {
    expect(starts.filter((start) => start.evaluated)).toEqual([]);
  });

  it("the threads are started where expected, from a module file's URL (the check sees them at all)", () => {
    expect(starts.map(({ file, first }) => `${file}: ${first}`).sort()).toEqual([
      "app/shared/bounded-thread.server.ts: options.entry",
      "packages/embedded-mongo/checksums.ts: checksumWorkerFile()",
    ]);
  });

  it("flags a worker started from text (the check itself)", () => {
    const probe = path.join(root, "test", ".worker-probe.tmp.ts");
    fs.writeFileSync(
      probe,
      "new Worker(`x`, { eval: true });\nnew Worker(run.toString());\nnew Worker(workerFile(), { workerData });\n",
    );
    try {
      const found = workerStarts("test/.worker-probe.tmp.ts").filter((start) => start.first !== "");
      expect(found.map((start) => start.evaluated)).toEqual([true, true, false]);
    } finally {
      fs.rmSync(probe);
    }
  });
});
