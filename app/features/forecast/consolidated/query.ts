/**
 * The consolidated forecast's address (/ij/forecast_consolidado): the RF, the figures shown and compared, the
 * comparison columns, the "somente aprovados" filter and which tree rows are open. Everything lives in the query
 * string, so Back and a shared link return to the same view, and every control is a link or a GET form (no
 * JavaScript needed). Browser-safe; the server parses it with zod (consolidated.server.ts).
 */

export const CONSOLIDATED_PATH = "/ij/forecast_consolidado";
export const VERSIONS_PATH = "/ij/forecast_versoes";

/**
 * Where a column of figures comes from: the live RF, the previous RF, the actuals (of the RF's year, or of another
 * year month by month: "realizado:2026"), or a saved version.
 */
export type FigureSource =
  | { kind: "rf" }
  | { kind: "previous" }
  | { kind: "actual"; year?: number }
  | { kind: "version"; id: string };

/** The comparison column groups: the year's total (Total, Δ, Δ%) and each month's Δ and Δ%. */
export const COMPARISON_GROUPS = ["total", "mes"] as const;
export type ComparisonGroup = (typeof COMPARISON_GROUPS)[number];

/** Tree depths: 0 area, 1 cost centre, 2 account group, 3 account. */
export const MAX_LEVEL = 3;

export type ConsolidatedQuery = {
  rf: string | null;
  base: FigureSource;
  compare: FigureSource | null;
  cols: ComparisonGroup[];
  approvedOnly: boolean;
  /** Rows above this depth start open (0: only the areas show). */
  level: number;
  /** Rows opened, and rows closed, against `level`. */
  open: string[];
  closed: string[];
};

export const DEFAULT_QUERY: ConsolidatedQuery = {
  rf: null,
  base: { kind: "rf" },
  compare: null,
  cols: [],
  approvedOnly: false,
  level: 0,
  open: [],
  closed: [],
};

const VERSION_TOKEN = /^v:([0-9a-f]{24})$/;
const ACTUAL_YEAR_TOKEN = /^realizado:(\d{4})$/;
/** The years of actuals a token may name. */
export const ACTUAL_YEARS = { min: 1900, max: 2999 } as const;

/** A source as the URL holds it: "rf", "anterior", "realizado", "realizado:2026", "v:<id>". */
export function sourceToken(source: FigureSource): string {
  switch (source.kind) {
    case "rf":
      return "rf";
    case "previous":
      return "anterior";
    case "actual":
      return source.year === undefined ? "realizado" : `realizado:${source.year}`;
    case "version":
      return `v:${source.id}`;
  }
}

export function parseSourceToken(token: string): FigureSource | null {
  if (token === "rf") return { kind: "rf" };
  if (token === "anterior") return { kind: "previous" };
  if (token === "realizado") return { kind: "actual" };
  const year = ACTUAL_YEAR_TOKEN.exec(token);
  if (year) {
    const value = Number(year[1]);
    return value >= ACTUAL_YEARS.min && value <= ACTUAL_YEARS.max ? { kind: "actual", year: value } : null;
  }
  const version = VERSION_TOKEN.exec(token);
  return version ? { kind: "version", id: version[1] } : null;
}

export const sameSource = (a: FigureSource | null, b: FigureSource | null) =>
  (a === null && b === null) || (a !== null && b !== null && sourceToken(a) === sourceToken(b));

/** The query as URL parameters (defaults left out). */
export function queryParams(query: ConsolidatedQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.rf) params.set("rf", query.rf);
  if (query.base.kind !== "rf") params.set("ver", sourceToken(query.base));
  if (query.compare) params.set("vs", sourceToken(query.compare));
  if (query.compare && query.cols.length > 0) params.set("cols", query.cols.join(","));
  if (query.approvedOnly) params.set("aprovados", "1");
  if (query.level > 0) params.set("nivel", String(query.level));
  for (const key of query.open) params.append("abrir", key);
  for (const key of query.closed) params.append("fechar", key);
  return params;
}

export function consolidatedHref(query: ConsolidatedQuery, excel = false): string {
  const text = queryParams(query).toString();
  return `${CONSOLIDATED_PATH}${excel ? "/excel" : ""}${text ? `?${text}` : ""}`;
}

/** Whether a tree row of `depth` is open under the query. */
export const isOpen = (query: Pick<ConsolidatedQuery, "level" | "open" | "closed">, key: string, depth: number) =>
  query.open.includes(key) || (depth < query.level && !query.closed.includes(key));

/** The query with one row toggled (opened if closed, closed if open). */
export function toggled(query: ConsolidatedQuery, key: string, depth: number): ConsolidatedQuery {
  const open = query.open.filter((k) => k !== key);
  const closed = query.closed.filter((k) => k !== key);
  if (isOpen(query, key, depth)) {
    if (depth < query.level) closed.push(key);
  } else if (depth >= query.level) open.push(key);
  return { ...query, open, closed };
}

/** The query opened to a depth for every row (the explicit toggles dropped). */
export const openedTo = (query: ConsolidatedQuery, level: number): ConsolidatedQuery => ({
  ...query,
  level,
  open: [],
  closed: [],
});

export const versionsHref = (rf?: string | null, page = 1) => {
  const params = new URLSearchParams();
  if (rf) params.set("rf", rf);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return `${VERSIONS_PATH}${text ? `?${text}` : ""}`;
};
