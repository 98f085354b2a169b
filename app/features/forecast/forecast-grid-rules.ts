import { byNumericCode } from "~/shared/collation";
import { gridTexts } from "./grid-texts";
import type { AnnualTotal } from "./release-points";
import type { VariancePayload } from "./variance";

/**
 * The forecast review grid as data (spec 001 §3 "Forecast record", §4, §5): how records become rows (step, row,
 * step-total, step-row), how totals add up and which cells a save sends (what a paste does: grid-paste.ts). Pure:
 * the loader builds the payload with it and the browser edits with it.
 */

export type RowType = "step" | "row" | "step-total" | "step-row";

/** One account of the cost centre: its values per window month (null: no record for that month). */
export type AccountLine = {
  /** account_concat, "4101001 - Salários e Ordenados": the row's key on save. */
  account: string;
  /** acc_description, shown in the acc_description_edit column. */
  label: string;
  values: (number | null)[];
  /** Month positions whose cell was changed in the portal (it has a history). */
  edited: number[];
  /** Month positions whose cell has comments. */
  comments?: number[];
  /** Month positions changed since the last submission ("Alterações desde o último envio"), once there was one. */
  since?: number[];
  /**
   * Per month, when the cell was last changed in the portal (epoch ms; 0: never): the state a save names, so that a save
   * sent again after it succeeded (or after the cell was set back to the value it found) is refused.
   */
  stamps: number[];
};

export type AccountGroup = { name: string; accounts: AccountLine[] };

/** What the review loader sends to the grid. */
export type ForecastGridPayload = {
  /** "YYYY-MM", the window's months, oldest first. */
  months: string[];
  /** Position in `months` of the first forecast column (columns before it show actuals). */
  firstForecastIndex: number;
  /** The grid may be edited now: open (edit month) and the user may write. */
  editable: boolean;
  totals: AnnualTotal[];
  groups: AccountGroup[];
  /** The variance columns asked for in the URL (`?cols=`), computed by the loader; absent when none is on. */
  variance?: VariancePayload;
  /**
   * The cell the grid opens on (`?celula=`, an audit entry's or a thread's link; `?conta=&mes=`, an older comment's
   * link): its account line and month position, and whether its history is shown too (`&historico=1`).
   */
  focus?: { line: number; month: number; history?: boolean };
  /** The saved versions the grid may be compared with (`?versao=`), newest first. */
  versionChoices?: { id: string; name: string }[];
};

/** A window record as the model reads it. */
export type WindowRecord = {
  account_concat: string;
  acc_description: string;
  group_level_2: string;
  /** Position of the record's month in the window. */
  monthIndex: number;
  /** As stored: null when the record has none (a broken import), shown empty. */
  value: number | null;
  forecast: number | null;
  edited: boolean;
  /** When the portal last changed the cell (epoch ms), if it did. */
  editedAt?: number;
};

const accountCode = (account: string) => account.split(" - ")[0];

/**
 * Groups the records by group_level_2 and account: groups in the order of their first account code (the chart of
 * accounts' order), accounts by code. Months up to the anchor show `value` (actuals), later months `forecast`.
 */
export function buildGroups(
  records: readonly WindowRecord[],
  monthCount: number,
  firstForecastIndex: number,
): AccountGroup[] {
  const groups = new Map<string, Map<string, AccountLine>>();
  for (const record of records) {
    if (record.monthIndex < 0 || record.monthIndex >= monthCount) continue;
    let accounts = groups.get(record.group_level_2);
    if (!accounts) groups.set(record.group_level_2, (accounts = new Map()));
    let line = accounts.get(record.account_concat);
    if (!line) {
      line = {
        account: record.account_concat,
        label: record.acc_description,
        values: new Array<number | null>(monthCount).fill(null),
        edited: [],
        stamps: new Array<number>(monthCount).fill(0),
      };
      accounts.set(record.account_concat, line);
    }
    const amount = record.monthIndex >= firstForecastIndex ? record.forecast : record.value;
    // A stored amount that is not a number (a broken import) shows as empty and cannot be edited.
    line.values[record.monthIndex] = typeof amount === "number" && Number.isFinite(amount) ? amount : null;
    if (record.edited) line.edited.push(record.monthIndex);
    line.stamps[record.monthIndex] = record.editedAt ?? 0;
  }
  const byCode = (a: string, b: string) => byNumericCode(accountCode(a), accountCode(b)) || a.localeCompare(b);
  return [...groups]
    .map(([name, accounts]) => ({
      name,
      accounts: [...accounts.values()]
        .sort((a, b) => byCode(a.account, b.account))
        .map((a) => ({ ...a, edited: a.edited.sort((x, y) => x - y) })),
    }))
    .sort((a, b) => byCode(a.accounts[0].account, b.accounts[0].account));
}

// ---------------------------------------------------------------------------------------------
// Rows

export type GridRow =
  | { id: string; type: "step"; label: string; group: number }
  | { id: string; type: "row"; label: string; account: string; group: number; line: number }
  | { id: string; type: "step-total"; label: string; group: number }
  | { id: string; type: "step-row"; label: string };

/**
 * The grid's rows: per group a grey header (step), its accounts (row, the only editable type), its total
 * (step-total); at the end the cost centre's total (step-row). `line` numbers the accounts across groups.
 */
export function gridRows(groups: readonly AccountGroup[]): GridRow[] {
  const rows: GridRow[] = [];
  let line = 0;
  groups.forEach((group, g) => {
    rows.push({ id: `g${g}`, type: "step", label: group.name, group: g });
    for (const account of group.accounts)
      rows.push({
        id: `a${line}`,
        type: "row",
        label: account.label,
        account: account.account,
        group: g,
        line: line++,
      });
    rows.push({ id: `t${g}`, type: "step-total", label: gridTexts.groupTotal(group.name), group: g });
  });
  if (groups.length > 0) rows.push({ id: "total", type: "step-row", label: gridTexts.grandTotal });
  return rows;
}

/** Values per account line (the grid's editable state), in `gridRows` line order. */
export type Values = readonly (readonly (number | null)[])[];

export function initialValues(groups: readonly AccountGroup[]): (number | null)[][] {
  return groups.flatMap((g) => g.accounts.map((a) => [...a.values]));
}

// ---------------------------------------------------------------------------------------------
// Totals (recomputed from the current values on every change)

export type Sums = {
  /** [group][month] */
  groups: number[][];
  /** [month] */
  grand: number[];
};

export function sumValues(groups: readonly AccountGroup[], values: Values, monthCount: number): Sums {
  const sums: Sums = { groups: [], grand: new Array<number>(monthCount).fill(0) };
  let line = 0;
  for (const group of groups) {
    const row = new Array<number>(monthCount).fill(0);
    for (let a = 0; a < group.accounts.length; a++, line++) {
      const v = values[line];
      for (let m = 0; m < monthCount; m++) row[m] += v[m] ?? 0;
    }
    for (let m = 0; m < monthCount; m++) sums.grand[m] += row[m];
    sums.groups.push(row);
  }
  return sums;
}

/** A row's annual totals, one per entry of `totals`. */
export function yearSums(row: readonly (number | null)[], totals: readonly AnnualTotal[]): number[] {
  return totals.map((t) => t.indexes.reduce((sum, i) => sum + (row[i] ?? 0), 0));
}

// ---------------------------------------------------------------------------------------------
// Changes

/** `at`: when the cell was last changed in the portal as loaded (AccountLine.stamps), checked by the server with `old`. */
export type CellChange = { account: string; month: string; old: number; value: number; at: number; spread?: true };

/** The cells whose value differs from the loaded one: what a save sends, nothing else. */
export function changedCells(
  groups: readonly AccountGroup[],
  months: readonly string[],
  original: Values,
  current: Values,
): CellChange[] {
  const changes: CellChange[] = [];
  let line = 0;
  for (const group of groups) {
    for (const account of group.accounts) {
      const before = original[line];
      const after = current[line];
      for (let m = 0; m < months.length; m++) {
        const old = before[m];
        const value = after[m];
        if (old !== null && value !== null && old !== value)
          changes.push({ account: account.account, month: months[m], old, value, at: account.stamps[m] ?? 0 });
      }
      line++;
    }
  }
  return changes;
}

/** Lines with at least one value different from the loaded one: the rows flagged editado. */
export function editedLines(original: Values, current: Values): Set<number> {
  const lines = new Set<number>();
  for (let line = 0; line < current.length; line++) {
    if (current[line] === original[line]) continue;
    if (current[line].some((v, m) => v !== original[line][m])) lines.add(line);
  }
  return lines;
}
