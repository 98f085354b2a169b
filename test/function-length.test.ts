import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Functions of the import pipeline stay short enough to read in one go: every function, method, constructor,
 * accessor and arrow function in app/platform/import (its tests aside) spans at most MAX_LINES lines, from its first
 * token to its last. A longer one is a list of steps waiting to be named.
 */
const root = path.resolve(__dirname, "..");
const MAX_LINES = 80;
const FOLDERS = ["app/platform/import"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
      out.push(rel);
  }
  return out;
}

type Span = { where: string; lines: number };

/** Every function-like node of a module with its length in lines, named by file, line and name. */
function functionSpans(file: string, text: string): Span[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const spans: Span[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (node: ts.Node): string => {
    const own = (node as { name?: ts.Node }).name;
    if (own) return own.getText(source);
    if (ts.isConstructorDeclaration(node)) return "constructor";
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
      return parent.name.getText(source);
    return "(anonymous)";
  };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const start = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - start + 1;
      spans.push({ where: `${file}:${start} ${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

const spans = FOLDERS.flatMap(sourceFiles).flatMap((file) =>
  functionSpans(file, fs.readFileSync(path.join(root, file), "utf8")),
);

describe("function length in the import pipeline", () => {
  it("reads the pipeline's functions (a broken reader would pass the rule below)", () => {
    expect(spans.length).toBeGreaterThan(200);
    expect(spans.some((s) => / ingestClaimedFile$/.test(s.where))).toBe(true);
  });

  it(`has no function over ${MAX_LINES} lines`, () => {
    const long = spans.filter((s) => s.lines > MAX_LINES).map((s) => `${s.where} (${s.lines} lines)`);
    expect(long).toEqual([]);
  });

  it("measures a function from its first line to its last, arrow functions and methods included", () => {
    const body = Array.from({ length: 79 }, (_, i) => `  x += ${i};`).join("\n");
    const text = `function long() {\n${body}\n}\nconst arrow = () => {\n  return 1;\n};\nclass A {\n  m() {}\n}\n`;
    expect(functionSpans("t.ts", text)).toEqual([
      { where: "t.ts:1 long", lines: 81 },
      { where: "t.ts:82 arrow", lines: 3 },
      { where: "t.ts:86 m", lines: 1 },
    ]);
  });
});
