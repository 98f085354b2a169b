import { describe, expect, it } from "vitest";
import {
  type ColumnMeta,
  type ColumnPinningState,
  columnDefs,
  INITIAL_PINNING,
  pinnedColumns,
  pinToggled,
} from "./forecast-columns";
import type { VariancePayload } from "./variance";
import type { GridColumnDef } from "./variance-columns";

const defs: GridColumnDef<ColumnMeta>[] = [
  { id: "acc_description_edit", header: "Conta", size: 300, meta: { kind: "label" } },
  { id: "m_2026-01", header: "jan", size: 112, meta: { kind: "month", index: 0 } },
  { id: "m_2026-02", header: "fev", size: 112, meta: { kind: "month", index: 1 } },
  { id: "m_2026-03", header: "mar", size: 112, meta: { kind: "month", index: 2 } },
  { id: "y_2026", header: "Total 2026", size: 132, meta: { kind: "total", index: 0 } },
];
const view = (pinning: ColumnPinningState) =>
  pinnedColumns(defs, pinning, (meta) => meta.kind).map((c) => [c.id, c.left, c.lastPinned]);

describe("the forecast grid's pinned columns", () => {
  it("starts with the account column pinned at the left edge, the others after it in their order", () => {
    expect(view(INITIAL_PINNING)).toEqual([
      ["acc_description_edit", 0, true],
      ["m_2026-01", null, false],
      ["m_2026-02", null, false],
      ["m_2026-03", null, false],
      ["y_2026", null, false],
    ]);
  });

  it("puts a newly pinned column after the pinned ones, at the sum of their widths, and unpins back to its place", () => {
    const pinned = pinToggled(INITIAL_PINNING, "m_2026-03", true);
    expect(pinned.left).toEqual(["acc_description_edit", "m_2026-03"]);
    expect(view(pinned)).toEqual([
      ["acc_description_edit", 0, false],
      ["m_2026-03", 300, true],
      ["m_2026-01", null, false],
      ["m_2026-02", null, false],
      ["y_2026", null, false],
    ]);
    const twice = pinToggled(pinned, "m_2026-01", true);
    expect(view(twice).slice(0, 3)).toEqual([
      ["acc_description_edit", 0, false],
      ["m_2026-03", 300, false],
      ["m_2026-01", 412, true],
    ]);
    const unpinned = pinToggled(pinToggled(twice, "acc_description_edit", false), "m_2026-03", false);
    expect(view(unpinned)).toEqual([
      ["m_2026-01", 0, true],
      ["acc_description_edit", null, false],
      ["m_2026-02", null, false],
      ["m_2026-03", null, false],
      ["y_2026", null, false],
    ]);
    expect(view({ left: [] }).every(([, left]) => left === null)).toBe(true);
  });

  it("ignores a pinned id that is not a column (a variance column turned off)", () => {
    expect(view({ left: ["vr_abs_2026-01", "acc_description_edit"] })[0]).toEqual(["acc_description_edit", 0, true]);
  });
});

describe("the forecast grid's variance columns", () => {
  it("sit beside what they compare: each month's after the month, each year's after its total", () => {
    const months = ["2026-11", "2026-12", "2027-01"];
    const totals = [
      { year: 2026, indexes: [0, 1], complete: false },
      { year: 2027, indexes: [2], complete: false },
    ];
    const variance = {
      columns: ["rf", "actual", "total"],
      previousRf: "RF1 2026",
      previousFound: true,
      closedMonths: [0],
      lines: [],
      groups: [],
      grand: {},
      totalMonths: [
        { compared: 2, of: 2, indexes: [0, 1] },
        { compared: 1, of: 1, indexes: [2] },
      ],
      version: { id: "v1", name: "Fechamento", found: true },
    } as unknown as VariancePayload;
    expect(columnDefs(months, totals, variance).map((c) => c.id)).toEqual([
      "acc_description_edit",
      "m_2026-11",
      "vr_abs_2026-11",
      "vr_pct_2026-11",
      "va_abs_2026-11",
      "va_pct_2026-11",
      "vm_abs_2026-11",
      "vm_pct_2026-11",
      "m_2026-12",
      "vr_abs_2026-12",
      "vr_pct_2026-12",
      "vm_abs_2026-12",
      "vm_pct_2026-12",
      "m_2027-01",
      "vr_abs_2027-01",
      "vr_pct_2027-01",
      "vm_abs_2027-01",
      "vm_pct_2027-01",
      "y_2026",
      "vt_prev_2026",
      "vt_abs_2026",
      "vt_pct_2026",
      "vv_prev_2026",
      "vv_abs_2026",
      "vv_pct_2026",
      "y_2027",
      "vt_prev_2027",
      "vt_abs_2027",
      "vt_pct_2027",
      "vv_prev_2027",
      "vv_abs_2027",
      "vv_pct_2027",
    ]);
  });
});
