/**
 * `portal export <dataset> [field=value …] [--out file.xlsx|file.csv] [--format xlsx|csv]`: a screen's "Exportar
 * Excel" for operators. The same streaming exporters as the screens write the XLSX (hidden row ids and revisions
 * included, so the file can go back through the screen); a `.csv` path (or --format csv) gets the visible columns
 * as a pt-BR CSV (";", UTF-8 with BOM, dates DD/MM/YYYY, decimal comma), converted row by row from that XLSX. Without
 * --out the file goes to stdout (an XLSX only when stdout is not a terminal).
 *
 * Filters, as the screens' URLs name them:
 *   planning             dateStart, dateEnd, chanel (one or more, required), sku, skuMode, brand, category, hero,
 *                        majorCategory, abcd, subCategory, plcLocal (as /ij/plan_edit)
 *   forecast             rf (e.g. RF2-2026), cost_center_concat (both required)
 *   hr                   filial (required), mes_inicio, mes_fim (YYYY-MM; default as /ij/rh_edit)
 *   product_master, product_master_nok, channel, channel_nok, planning_spend, planning_spend_nok
 *                        file (a file's path or the name it was uploaded under)
 */
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable, Transform, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { getConfig } from "../app/config.server";
import { forecastXlsx } from "../app/features/forecast/excel.server";
import { resolveReview } from "../app/features/forecast/review.server";
import { hrXlsx } from "../app/features/hr/excel.server";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM, resolveMonthRange } from "../app/features/hr/month-range";
import { planningXlsx } from "../app/features/planning/excel.server";
import { parseFilter } from "../app/features/planning/planning";
import { masterDataXlsx } from "../app/features/repository-and-master-data/excel.server";
import { readXlsxRows } from "../app/features/uploads-and-jobs/import/readers.server";
import { branchVisible } from "../app/models/hr.server";
import { CHANNEL_TABS, PLANNING_TABS, type MasterDataTab } from "../app/models/master-data-queries.server";
import { MASTER_DATA_COLLECTION_NAMES } from "../app/models/master-data.server";
import { ATTRIBUTES } from "../app/models/planning.fields";
import { portalToday } from "../app/shared/clock.server";
import { csvCell } from "../app/shared/csv";
import { splitArgs, UsageError, zodMessage } from "./cli-support";

export const EXPORT_DATASETS = ["planning", "forecast", "hr", ...MASTER_DATA_COLLECTION_NAMES] as const;
export type ExportDataset = (typeof EXPORT_DATASETS)[number];

export const EXPORT_USAGE = `portal export <dataset> [field=value …] [--out <file.xlsx|file.csv>] [--format xlsx|csv]
  datasets: ${EXPORT_DATASETS.join(", ")}`;

/** The filter fields each dataset takes (the names its screen's URL uses). */
const FILTER_FIELDS: Record<ExportDataset, readonly string[]> = {
  planning: ["dateStart", "dateEnd", "chanel", "sku", "skuMode", ...ATTRIBUTES.map((a) => a.param)],
  forecast: ["rf", "cost_center_concat"],
  hr: ["filial", MONTH_FROM_PARAM, MONTH_TO_PARAM],
  product_master: ["file"],
  product_master_nok: ["file"],
  channel: ["file"],
  channel_nok: ["file"],
  planning_spend: ["file"],
  planning_spend_nok: ["file"],
};
/** Fields that may be given several times (lists); every other one at most once. */
const LIST_FIELDS = new Set(["chanel", "sku", ...ATTRIBUTES.map((a) => a.param)]);

const exportArgs = z.object({
  dataset: z.enum(EXPORT_DATASETS, {
    errorMap: () => ({ message: `the dataset must be one of ${EXPORT_DATASETS.join(", ")}` }),
  }),
  out: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => /\.(xlsx|csv)$/i.test(p), "--out must name a .xlsx or .csv file")
    .optional(),
  format: z.enum(["xlsx", "csv"], { errorMap: () => ({ message: "--format must be xlsx or csv" }) }).optional(),
});

const forecastFilter = z.object({
  rf: z.string({ required_error: "rf is required (e.g. rf=RF2-2026)" }).min(1).max(40),
  cost_center_concat: z.string({ required_error: "cost_center_concat is required" }).min(1).max(300),
});
const hrFilter = z.object({
  filial: z.string({ required_error: "filial is required" }).min(1).max(200),
  [MONTH_FROM_PARAM]: z.string().max(32).optional(),
  [MONTH_TO_PARAM]: z.string().max(32).optional(),
});
const masterDataFilter = z.object({ file: z.string().trim().min(1).max(1024).optional() });

/** `a=1&b=2` or `a=1 b=2` (or both) as search parameters, each field checked against the dataset's list. */
export function filterParams(dataset: ExportDataset, terms: readonly string[]): URLSearchParams {
  const params = new URLSearchParams();
  for (const term of terms) {
    for (const part of term.split("&")) {
      if (part === "") continue;
      const eq = part.indexOf("=");
      if (eq <= 0) throw new UsageError(`a filter is field=value (got "${part.slice(0, 60)}")`);
      params.append(part.slice(0, eq), part.slice(eq + 1));
    }
  }
  const allowed = FILTER_FIELDS[dataset];
  const fields = z.array(
    z.enum(allowed as [string, ...string[]], {
      errorMap: (_issue, ctx) => ({
        message: `unknown filter field "${String(ctx.data).slice(0, 40)}" for ${dataset}; fields: ${allowed.join(", ")}`,
      }),
    }),
  );
  const keys = [...params.keys()];
  const checked = fields.safeParse(keys);
  if (!checked.success) throw new UsageError(checked.error.issues[0].message);
  for (const key of new Set(keys)) {
    if (!LIST_FIELDS.has(key) && params.getAll(key).length > 1)
      throw new UsageError(`filter field ${key} given more than once`);
  }
  return params;
}

const single = (params: URLSearchParams) =>
  Object.fromEntries([...new Set(params.keys())].map((k) => [k, params.get(k) ?? undefined]));

/** The dataset's XLSX for the filter, from the screen's own exporter; a readable error for a filter it refuses. */
export async function exportResponse(dataset: ExportDataset, params: URLSearchParams): Promise<Response> {
  switch (dataset) {
    case "planning": {
      const parsed = parseFilter(params, "plan");
      if (!parsed.ok) {
        const errors = Object.entries(parsed.errors).map(
          ([field, messages]) => `${field}: ${(messages as string[]).join(", ")}`,
        );
        throw new UsageError(`invalid planning filter: ${errors.join("; ")}`);
      }
      return planningXlsx(parsed.filter);
    }
    case "forecast": {
      const parsed = forecastFilter.safeParse(single(params));
      if (!parsed.success) throw new UsageError(`invalid forecast filter: ${zodMessage(parsed.error)}`);
      const lookup = await resolveReview(parsed.data);
      if (!lookup.ok) throw new UsageError(`invalid forecast filter: ${lookup.message}`);
      return forecastXlsx(lookup.review, portalToday());
    }
    case "hr": {
      const parsed = hrFilter.safeParse(single(params));
      if (!parsed.success) throw new UsageError(`invalid hr filter: ${zodMessage(parsed.error)}`);
      const months = resolveMonthRange(
        { from: parsed.data[MONTH_FROM_PARAM] ?? null, to: parsed.data[MONTH_TO_PARAM] ?? null },
        { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth },
      );
      if (!months.ok) throw new UsageError(`invalid hr filter: ${months.error}`);
      // The operator sees every branch (no store scope); an unknown one is said so rather than exported empty.
      if (!(await branchVisible(parsed.data.filial, { kind: "all" })))
        throw new UsageError(`invalid hr filter: no branch "${parsed.data.filial}"`);
      return hrXlsx(parsed.data.filial, months.range);
    }
    default: {
      const parsed = masterDataFilter.safeParse(single(params));
      if (!parsed.success) throw new UsageError(`invalid ${dataset} filter: ${zodMessage(parsed.error)}`);
      const tab = [...CHANNEL_TABS, ...PLANNING_TABS].find((t) => t.collection === dataset) as MasterDataTab;
      return masterDataXlsx({ collection: tab.collection, columns: tab.columns, label: tab.label }, parsed.data.file);
    }
  }
}

const HIDDEN = new Set(["_id", "_rev", "_orig"]);

/** A cell as pt-BR text: dates DD/MM/YYYY, numbers with a decimal comma. */
function ptBrText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? ""
      : `${String(value.getUTCDate()).padStart(2, "0")}/${String(value.getUTCMonth() + 1).padStart(2, "0")}/${value.getUTCFullYear()}`;
  }
  if (typeof value === "number") return String(value).replace(".", ",");
  return String(value);
}

/** The visible columns of an exported XLSX as CSV lines, row by row (the hidden id, revision and scope columns dropped). */
async function* csvOf(xlsx: Readable): AsyncGenerator<string> {
  let keep: number[] | null = null;
  yield "\uFEFF";
  for await (const row of readXlsxRows(xlsx)) {
    if (!keep) {
      keep = row.cells
        .map((_, i) => i)
        .filter((i) => {
          const header = String(row.cells[i] ?? "");
          return !HIDDEN.has(header) && !header.startsWith("_portal:");
        });
    }
    // Formulas in text cells escaped, numbers kept as numbers (app/shared/csv.ts, the rule of every CSV we write).
    yield `${keep.map((i) => csvCell(row.cells[i], ptBrText)).join(";")}\r\n`;
  }
}

export type ExportIo = {
  /** Progress and the summary: stdout when the file goes to a path, stderr when it goes to stdout. */
  note(line: string): void;
  stdout: Writable & { isTTY?: boolean };
};

/** Runs `portal export`; throws UsageError on a bad dataset, option or filter. */
export async function exportCommand(args: readonly string[], io: ExportIo): Promise<void> {
  const { options, positional } = splitArgs(args, ["--out", "--format"]);
  const parsed = exportArgs.safeParse({
    dataset: positional[0] ?? "",
    out: options.get("--out"),
    format: options.get("--format"),
  });
  if (!parsed.success) throw new UsageError(`${zodMessage(parsed.error)}\n${EXPORT_USAGE}`);
  const { dataset, out } = parsed.data;
  const format = parsed.data.format ?? (out && /\.csv$/i.test(out) ? "csv" : "xlsx");
  if (out && !out.toLowerCase().endsWith(`.${format}`))
    throw new UsageError(`--format ${format} does not match ${out}`);
  if (!out && format === "xlsx" && io.stdout.isTTY)
    throw new UsageError(
      "an XLSX is not written to a terminal: use --out <file.xlsx>, redirect stdout, or --format csv",
    );
  const params = filterParams(dataset, positional.slice(1));

  const response = await exportResponse(dataset, params);
  if (!response.body) throw new Error("the export produced no file");
  const xlsx = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const source = format === "csv" ? Readable.from(csvOf(xlsx)) : xlsx;
  const target: Writable = out ? createWriteStream(out) : io.stdout;
  try {
    // stdout stays open after the export (end: false); a file is closed.
    await pipeline(source, counter, target, { end: Boolean(out) });
  } catch (error) {
    if (out) await rm(out, { force: true });
    throw error;
  }
  io.note(
    `Exported ${dataset}${params.size > 0 ? ` (${params.toString()})` : ""} as ${format.toUpperCase()} to ${out ?? "stdout"}: ${bytes.toLocaleString("pt-BR")} bytes.`,
  );
}
