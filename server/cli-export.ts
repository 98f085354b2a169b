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
import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { readXlsxRows } from "xlsx-reader";
import { z } from "zod";
import { OPERATOR_TYPE } from "../app/access";
import { recordExport } from "../app/platform/audit/data-events.server";
import { ROUND_TRIPS, roundTripByExportName } from "../app/round-trips.server";
import { csvCell } from "../app/shared/csv";
import { type RoundTripDataset, RoundTripScopeError } from "../app/shared/excel/dataset";
import { CLI_UPLOADER } from "./cli-import";
import { splitArgs, UsageError, zodMessage } from "./cli-support";

/** The datasets, as app/round-trips.server.ts lists them (planning, forecast, hr, then every master-data base). */
export const EXPORT_DATASETS = ROUND_TRIPS.map((d) => d.exportName) as [string, ...string[]];
export type ExportDataset = string;

export const EXPORT_USAGE = `portal export <dataset> [field=value …] [--out <file.xlsx|file.csv>] [--format xlsx|csv]
  datasets: ${EXPORT_DATASETS.join(", ")}`;

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

const datasetNamed = (name: ExportDataset): RoundTripDataset => {
  const dataset = roundTripByExportName(name);
  if (!dataset) throw new UsageError(`the dataset must be one of ${EXPORT_DATASETS.join(", ")}`);
  return dataset;
};

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
  const { scopeFields: allowed, listFields = [] } = datasetNamed(dataset);
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
    if (!listFields.includes(key) && params.getAll(key).length > 1)
      throw new UsageError(`filter field ${key} given more than once`);
  }
  return params;
}

/** The dataset's XLSX for the filter, from the screen's own exporter; a readable error for a filter it refuses. */
export async function exportResponse(dataset: ExportDataset, params: URLSearchParams): Promise<Response> {
  try {
    return await datasetNamed(dataset).exportXlsx(params);
  } catch (error) {
    if (!(error instanceof RoundTripScopeError)) throw error;
    const problem = typeof error.problem === "string" ? error.problem : zodMessage(error.problem);
    throw new UsageError(`invalid ${dataset} filter: ${problem}`);
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
  // The operator's export in the audit trail (no client address: the deployment's own shell).
  await recordExport({
    actor: { email: CLI_UPLOADER, name: "portal export", type: OPERATOR_TYPE },
    dataset: datasetNamed(dataset).id,
    object: { kind: "dataset", id: datasetNamed(dataset).id, label: out ?? "stdout" },
    filter: params,
    details: { via: "cli", format, bytes },
    ip: null,
  });
  io.note(
    `Exported ${dataset}${params.size > 0 ? ` (${params.toString()})` : ""} as ${format.toUpperCase()} to ${out ?? "stdout"}: ${bytes.toLocaleString("pt-BR")} bytes.`,
  );
}
