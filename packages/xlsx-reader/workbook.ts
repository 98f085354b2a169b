import type { XmlHandler } from "./xml";

/** The workbook's parts the rows depend on: which sheet is first, the date system, and which styles show dates. */

/** The first sheet's relationship id (workbook.xml's first <sheet>) and the date system, filled as the part is read. */
export type WorkbookFacts = { rId: string | null; date1904: boolean };

export function workbookHandler(facts: WorkbookFacts): XmlHandler {
  return {
    open(name, attributes) {
      if (name === "workbookPr") facts.date1904 = attributes.date1904 === "1";
      else if (name === "sheet" && facts.rId === null) facts.rId = attributes["r:id"] ?? null;
    },
    close() {},
  };
}

/** The target of the relationship `rId` (workbook.xml.rels), set into `found.target` as the part is read. */
export function relationshipHandler(rId: string | null, found: { target: string | null }): XmlHandler {
  return {
    open(name, attributes) {
      if (name === "Relationship" && rId !== null && attributes.Id === rId && found.target === null)
        found.target = attributes.Target ?? null;
    },
    close() {},
  };
}

/** The part's path a relationship's target names, from xl/. */
export function partPath(target: string): string {
  const path = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
  const parts: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "..") parts.pop();
    else if (segment !== "." && segment !== "") parts.push(segment);
  }
  return parts.join("/");
}

/** The number formats exceljs knows by id (ECMA-376's built-in ones) that are dates: 14–22 and 45–47. */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** A date format as exceljs decides it: y, m, d, h, M, s or b outside [brackets] and "quotes". */
export function isDateFormat(code: string): boolean {
  return /[ymdhMsb]/.test(withoutGroups(withoutGroups(code, "[", "]"), '"', '"'));
}

/**
 * `text` without each run from `open` to the next `close` (what `replace(/\[[^\]]*]/g, "")` does, in one pass: the
 * expression tries every `open` against the rest of the text, which is quadratic when no `close` follows).
 */
export function withoutGroups(text: string, open: string, close: string): string {
  let kept = "";
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) break;
    const end = text.indexOf(close, start + 1);
    if (end < 0) break;
    kept += text.slice(from, start);
    from = end + 1;
  }
  return kept + text.slice(from);
}

/** For each cell style (cellXfs) index, whether it shows a date; null where the style has no number format. */
export function dateStylesHandler(styles: (boolean | null)[]): XmlHandler {
  const custom = new Map<number, string>();
  let inCellXfs = false;
  return {
    open(name, attributes) {
      if (name === "numFmt" && attributes.numFmtId !== undefined && attributes.formatCode !== undefined)
        custom.set(Number.parseInt(attributes.numFmtId, 10), attributes.formatCode.replace(/[\\](.)/g, "$1"));
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number.parseInt(attributes.numFmtId, 10);
        if (!id) styles.push(null);
        else {
          const code = custom.get(id);
          styles.push(code ? isDateFormat(code) : BUILT_IN_DATE_FORMATS.has(id) ? true : null);
        }
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  };
}
