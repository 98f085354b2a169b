import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The reader's sources stay readable: no function (declaration, method, accessor, arrow or expression; nested ones
 * count inside their parent's) reaches MAX_FUNCTION_LINES lines. Tests and test-support/ (where the exceljs-based
 * reader it replaced is kept as it was) are left out.
 */

const MAX_FUNCTION_LINES = 80;
const here = path.dirname(fileURLToPath(import.meta.url));

/** The package's TypeScript sources: its folder's .ts files but tests (sub-folders hold tests' support and bench). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => path.join(dir, entry.name));
}

/** Each function of `file` with its lines, first line to last. */
function functionLengths(file: string): Array<{ name: string; lines: number }> {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : "(anonymous)";
      found.push({ name: `${path.relative(here, file)}:${first + 1} ${name}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the package's sources", () => {
  const files = sources(here);

  it("are found", () => {
    expect(files.map((file) => path.relative(here, file))).toEqual(
      expect.arrayContaining(["zip.ts", "xml.ts", "rows.ts", "read.ts", "index.ts", "worker.ts"]),
    );
  });

  it(`have no function of ${MAX_FUNCTION_LINES} lines or more`, () => {
    const long = files.flatMap(functionLengths).filter((fn) => fn.lines >= MAX_FUNCTION_LINES);
    expect(long).toEqual([]);
  });
});
