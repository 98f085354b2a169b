import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One date format per kind of moment (app/shared/dates.ts): a date or time people read — a screen, a notice, an
 * e-mail, a cell note, a comment thread, an export's text — is written by dates.ts, in the portal's zone. ISO 8601
 * is for machines only: the API's JSON, SCIM, logs, file names, query parameters, stored keys and the audit's
 * hash chain. This reads every source file of app/ (tests and fixtures aside) and lists each line that writes a date
 * by itself (toISOString, toLocaleDateString/TimeString, toUTCString, Intl.DateTimeFormat, toLocaleString with
 * date options), outside the files named below, each with why its dates are for a machine and how many it writes.
 */
const root = path.resolve(__dirname, "..");
const SKIPPED_DIRS = new Set(["node_modules", "build", "dist"]);
const NOT_SOURCE = /(\.test|\.fixture|fixtures|test-helpers)\.tsx?$/;
const WRITES_A_DATE =
  /\.toISOString\(\)|\.toLocale(Date|Time)String\(|\.to(UTC|Date|Time)String\(|Intl\.DateTimeFormat\b|\.toLocaleString\([^)]*\b(timeZone|dateStyle|timeStyle|hour|month|weekday)\b/;
const COMMENT = /^\s*(\/\/|\*|\/\*)/;

/** File → how many lines write a date themselves, and why those are not for people. */
const MACHINE_DATES: Record<string, { lines: number; why: string }> = {
  "app/shared/dates.ts": { lines: 3, why: "THE module: its Intl formatter of a zone's wall clock" },
  "app/shared/months.ts": { lines: 1, why: "the calendar month of now in the portal's zone, a number" },
  "app/shared/logger.server.ts": { lines: 1, why: "a log line's time" },
  "app/shared/error-log.server.ts": { lines: 1, why: "a log line's field" },
  "app/services/mail.server.ts": { lines: 1, why: "the outbox's log line" },
  "app/platform/notices/mail-dispatch.server.ts": { lines: 1, why: "a log line's field" },
  "app/features/subscriptions/dispatch.server.ts": { lines: 1, why: "a log line's field" },
  "app/api/scim/users.server.ts": { lines: 2, why: "SCIM's JSON (RFC 7643 dateTime)" },
  "app/api/v1/operations.server.ts": { lines: 2, why: "the API's JSON" },
  "app/api/v1/grid-operations.server.ts": { lines: 3, why: "the API's JSON" },
  "app/services/dashboards/native.server.ts": {
    lines: 1,
    why: "a chart value as JSON; dashboards/format.ts writes it for people",
  },
  "app/features/notices/pages.server.ts": { lines: 1, why: "the loader's JSON; the page formats it (dates.ts)" },
  "app/features/subscriptions/pages.server.ts": { lines: 2, why: "the loader's JSON; the page formats it (dates.ts)" },
  "app/features/planning/results.server.ts": { lines: 1, why: "the page's load time, sent back to detect changes" },
  "app/features/api-tokens/tokens.server.ts": { lines: 1, why: "an audit entry's details (the audit screen formats)" },
  "app/platform/audit/record.server.ts": { lines: 2, why: "an audit entry's details (the audit screen formats)" },
  "app/models/audit.server.ts": { lines: 3, why: "the audit's UTC day key and its hash chain's canonical form" },
  "app/models/audit-refusals.server.ts": { lines: 1, why: "a counter's key" },
  "app/models/subscriptions.server.ts": { lines: 1, why: "a send's key" },
  "app/platform/import/datasets/ingest.server.ts": { lines: 1, why: "a stored month key (YYYY-MM)" },
  "app/shared/excel/values.ts": { lines: 2, why: "a cell read as text for the import rules; stored YYYYMMDD" },
  "app/shared/excel/round-trip.server.ts": { lines: 1, why: "the hidden _orig column, read back by the portal" },
  "app/shared/csv.ts": { lines: 1, why: "a Date no caller formatted (the CLI export): ISO, read back by machines" },
  "app/features/planning/planning.ts": { lines: 1, why: "checks a ?dateStart= parameter" },
  "app/features/planning/comments.server.ts": { lines: 2, why: "a ?dateStart=/dateEnd= link's parameters" },
  "app/features/planning/excel.server.ts": { lines: 1, why: "the download's file name" },
  "app/features/planning/planning-dates.ts": { lines: 1, why: "a competency month, 'month and year' (spec 001 §2)" },
  "app/features/dashboards/format.ts": { lines: 1, why: "a chart's month label (a month, not a moment)" },
  "app/features/repository-and-master-data/excel.server.ts": {
    lines: 3,
    why: "the file name, a row's revision hash, a day compared as a key",
  },
  "app/features/audit/list.server.ts": { lines: 3, why: "reads ?de=/?ate= days and the zone's midnight" },
  "app/features/audit/export.server.ts": { lines: 1, why: "the download's file name" },
  "app/seed/context.ts": { lines: 1, why: "seeded file names" },
  "app/seed/hr.ts": { lines: 1, why: "seeded file contents" },
  "app/seed/index.server.ts": { lines: 1, why: "the seed command's log" },
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) out.push(...sourceFiles(rel));
    } else if (/\.tsx?$/.test(entry.name) && !NOT_SOURCE.test(entry.name)) out.push(rel);
  }
  return out;
}

function dateWritingLines(file: string): string[] {
  return fs
    .readFileSync(path.join(root, file), "utf8")
    .split("\n")
    .flatMap((line, i) =>
      !COMMENT.test(line) && WRITES_A_DATE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
    );
}

describe("dates people read are written by app/shared/dates.ts", () => {
  const files = sourceFiles("app");

  it("no other file of app/ writes a date itself", () => {
    expect(files.length).toBeGreaterThan(300);
    const found = files.filter((file) => !(file in MACHINE_DATES)).flatMap(dateWritingLines);
    expect(found, "format with app/shared/dates.ts, or name the file here with why its dates are a machine's").toEqual(
      [],
    );
  });

  it("the files that write dates for machines write only the ones named", () => {
    const counts = Object.fromEntries(
      Object.keys(MACHINE_DATES).map((file) => [
        file,
        fs.existsSync(path.join(root, file)) ? dateWritingLines(file).length : 0,
      ]),
    );
    expect(counts).toEqual(Object.fromEntries(Object.entries(MACHINE_DATES).map(([file, { lines }]) => [file, lines])));
  });

  it("catches each way of writing a date, and not a number's pt-BR text", () => {
    for (const line of [
      "const day = at.toISOString().slice(0, 10);",
      "x.toLocaleDateString('pt-BR')",
      "x.toLocaleTimeString()",
      "new Intl.DateTimeFormat('pt-BR')",
      "d.toLocaleString('pt-BR', { timeZone: 'UTC' })",
      "d.toUTCString()",
    ])
      expect(WRITES_A_DATE.test(line), line).toBe(true);
    expect(WRITES_A_DATE.test("n.toLocaleString('pt-BR')")).toBe(false);
  });
});
