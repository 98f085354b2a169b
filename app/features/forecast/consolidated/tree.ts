import type { ShownCode } from "~/models/forecast-cycle.fields";
import { byNumericCode, byPtBr, byPtBrNumeric } from "~/shared/collation";
import type { CentreInfo, FigureLine, FigureSet } from "./figures";

/**
 * The consolidated tree: area (level_descr) → cost centre → account group (group_level_2) → account, every level
 * with its sum per month and for the year, beside the compared figures when there are any. Pure: the screen and the
 * export build the same rows; the query only decides which are open.
 */

export type RowKind = "company" | "area" | "costCentre" | "group" | "account";

export type TreeRow = {
  key: string;
  parent: string | null;
  /** -1 the company's total, 0 area, 1 cost centre, 2 group, 3 account. */
  depth: number;
  kind: RowKind;
  label: string;
  hasChildren: boolean;
  /** Cost centre rows: the cost centre and its state in the cycle. */
  costCentre?: string;
  state?: ShownCode;
  /** The shown figures per month (null: none) and their year's sum. */
  a: (number | null)[];
  aTotal: number | null;
  /** The compared figures (empty without a comparison). */
  b: (number | null)[];
  /** The compared figures' sum over the months both sides cover (TreeInput.common); null: none there. */
  bTotal: number | null;
  /**
   * The shown figures' sum over the same months (0 where only the compared side has a figure): the year's Δ is
   * aMatched − bTotal, both shown beside it (null: neither side has a figure there).
   */
  aMatched: number | null;
};

export type TreeInput = {
  monthCount: number;
  /** The cost centres of the view (in scope, after the approved-only filter), with their state. */
  centres: readonly (CentreInfo & { state: ShownCode })[];
  shown: FigureSet;
  compared: FigureSet | null;
  /** The month positions both sides cover (their windows, the months with actuals): the compared totals sum these. */
  common?: readonly number[];
  noArea: string;
  companyLabel: string;
};

export const areaKey = (level: string) => `a|${level}`;
export const centreKey = (cc: string) => `c|${cc}`;
export const groupKey = (cc: string, group: string) => `g|${cc}|${group}`;
const accountKey = (cc: string, account: string) => `l|${cc}|${account}`;
export const COMPANY_KEY = "total";

const accountCode = (account: string) => account.split(" - ")[0];
const byAccount = (a: string, b: string) => byNumericCode(accountCode(a), accountCode(b)) || a.localeCompare(b);

type Sums = Pick<TreeRow, "a" | "b" | "aTotal" | "bTotal" | "aMatched">;

const addInto = (into: (number | null)[], from: readonly (number | null)[]) => {
  from.forEach((v, i) => {
    if (v !== null) into[i] = (into[i] ?? 0) + v;
  });
};

const sumOrNull = (list: readonly (number | null)[]) =>
  list.some((v) => v !== null) ? list.reduce<number>((s, v) => s + (v ?? 0), 0) : null;

/** A row's totals from its months: the year's, and both sides' over the common months. */
function withTotals(a: (number | null)[], b: (number | null)[], common: readonly number[]): Sums {
  if (b.length === 0) return { a, b, aTotal: sumOrNull(a), bTotal: null, aMatched: null };
  const bTotal = sumOrNull(common.map((i) => b[i]));
  const aMatched = sumOrNull(common.map((i) => a[i])) ?? (bTotal === null ? null : 0);
  return { a, b, aTotal: sumOrNull(a), bTotal, aMatched };
}

function sumRows(rows: readonly Sums[], monthCount: number, compared: boolean, common: readonly number[]): Sums {
  const a = new Array<number | null>(monthCount).fill(null);
  const b = compared ? new Array<number | null>(monthCount).fill(null) : [];
  for (const row of rows) {
    addInto(a, row.a);
    if (compared) addInto(b, row.b);
  }
  return withTotals(a, b, common);
}

/** Every month when the input does not say which both sides cover. */
const commonOf = (input: TreeInput): readonly number[] =>
  input.common ?? Array.from({ length: input.monthCount }, (_, i) => i);

type Centre = CentreInfo & { state: ShownCode };
type Built = { rows: TreeRow[]; sums: Sums };

/** A cost centre's accounts (those with a figure on either side), by group in the chart of accounts' order. */
function accountsOf(shown: Map<string, FigureLine>, compared: Map<string, FigureLine>) {
  const accounts = new Map<string, { label: string; group: string }>();
  // An account without a figure in the view's months on either side is left out (its records lie elsewhere).
  for (const line of [...shown.values(), ...compared.values()])
    if (!accounts.has(line.account) && line.amounts.some((a) => a !== null))
      accounts.set(line.account, { label: line.label, group: line.group });
  const groups = new Map<string, string[]>();
  for (const [account, { group }] of accounts) groups.set(group, [...(groups.get(group) ?? []), account]);
  const ordered = [...groups].map(([g, list]) => [g, list.sort(byAccount)] as const);
  return { accounts, groups: ordered.sort((x, y) => byAccount(x[1][0], y[1][0])) };
}

function centreRows(centre: Centre, input: TreeInput): Built {
  const { monthCount, compared } = input;
  const cc = centre.cost_center_concat;
  const shownLines = input.shown.lines.get(cc) ?? new Map<string, FigureLine>();
  const comparedLines = compared?.lines.get(cc) ?? new Map<string, FigureLine>();
  const { accounts, groups } = accountsOf(shownLines, comparedLines);
  const none = () => new Array<number | null>(monthCount).fill(null);
  const rows: TreeRow[] = [];
  const groupSums: Sums[] = [];
  for (const [group, list] of groups) {
    const leaves = list.map(
      (account): TreeRow => ({
        key: accountKey(cc, account),
        parent: groupKey(cc, group),
        depth: 3,
        kind: "account",
        label: accounts.get(account)!.label || account,
        hasChildren: false,
        ...withTotals(
          shownLines.get(account)?.amounts.slice() ?? none(),
          compared ? (comparedLines.get(account)?.amounts.slice() ?? none()) : [],
          commonOf(input),
        ),
      }),
    );
    const sums = sumRows(leaves, monthCount, compared !== null, commonOf(input));
    groupSums.push(sums);
    const head = { key: groupKey(cc, group), parent: centreKey(cc), label: group, hasChildren: true };
    rows.push({ ...head, depth: 2, kind: "group", ...sums }, ...leaves);
  }
  const sums = sumRows(groupSums, monthCount, compared !== null, commonOf(input));
  const head: TreeRow = {
    key: centreKey(cc),
    parent: areaKey(centre.level),
    depth: 1,
    kind: "costCentre",
    label: cc,
    hasChildren: rows.length > 0,
    costCentre: cc,
    state: centre.state,
    ...sums,
  };
  return { rows: [head, ...rows], sums };
}

function areaRows(level: string, centres: Centre[], input: TreeInput): Built {
  const built = centres
    .sort((x, y) => byPtBrNumeric(x.cost_center_concat, y.cost_center_concat))
    .map((centre) => centreRows(centre, input));
  const sums = sumRows(
    built.map((b) => b.sums),
    input.monthCount,
    input.compared !== null,
    commonOf(input),
  );
  const head: TreeRow = {
    key: areaKey(level),
    parent: COMPANY_KEY,
    depth: 0,
    kind: "area",
    label: level || input.noArea,
    hasChildren: centres.length > 0,
    ...sums,
  };
  return { rows: [head, ...built.flatMap((b) => b.rows)], sums };
}

/** Every row of the tree in display order, the company's total first. */
export function buildTree(input: TreeInput): TreeRow[] {
  const areas = new Map<string, Centre[]>();
  for (const centre of input.centres) areas.set(centre.level, [...(areas.get(centre.level) ?? []), centre]);
  const built = [...areas.keys()].sort(byPtBr).map((level) => areaRows(level, areas.get(level)!, input));
  const company: TreeRow = {
    key: COMPANY_KEY,
    parent: null,
    depth: -1,
    kind: "company",
    label: input.companyLabel,
    hasChildren: built.length > 0,
    ...sumRows(
      built.map((b) => b.sums),
      input.monthCount,
      input.compared !== null,
      commonOf(input),
    ),
  };
  return [company, ...built.flatMap((b) => b.rows)];
}

/** The rows whose every ancestor is open (the company's total and the areas always show). */
export function visibleRows(rows: readonly TreeRow[], open: (key: string, depth: number) => boolean): TreeRow[] {
  const shown = new Set<string>([COMPANY_KEY]);
  const result: TreeRow[] = [];
  const depthOf = new Map(rows.map((r) => [r.key, r.depth]));
  for (const row of rows) {
    const parentShownOpen =
      row.parent === null ||
      row.parent === COMPANY_KEY ||
      (shown.has(row.parent) && open(row.parent, depthOf.get(row.parent) ?? 0));
    if (!parentShownOpen) continue;
    shown.add(row.key);
    result.push(row);
  }
  return result;
}
