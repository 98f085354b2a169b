import { Link } from "@remix-run/react";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import type { MyCostCentre } from "./board.server";
import { boardTexts } from "./board-texts";
import { CycleStateBadge } from "./state-badge";

/**
 * "Meus centros de custo": a preparer's own cost centres in an RF, each with its state, the days left, its review and,
 * when a reviewer returned it, why. On its own screen (/ij/forecast_meus_centros) and on the review's filter.
 */

export type MyCostCentres = { rf: string; rows: MyCostCentre[] };

const COLUMNS: ColumnDef<MyCostCentre, unknown>[] = [
  {
    id: "cc",
    header: boardTexts.costCenter,
    cell: ({ row }) => <Link to={row.original.href}>{row.original.cost_center_concat}</Link>,
  },
  {
    id: "state",
    header: boardTexts.state,
    cell: ({ row }) => <CycleStateBadge code={row.original.state} label={row.original.stateLabel} />,
  },
  {
    id: "days",
    header: boardTexts.daysLeft,
    cell: ({ row }) => (row.original.daysLeft === null ? boardTexts.ended : String(row.original.daysLeft)),
  },
  {
    id: "reason",
    header: boardTexts.returnReason,
    cell: ({ row }) => {
      const returned = row.original.returned;
      if (!returned) return null;
      return (
        <>
          <span className="forecast-mine__reason">{returned.comment}</span>
          <br />
          <small>{boardTexts.returnedBy(returned.by, returned.at)}</small>
        </>
      );
    },
  },
];

/** The table of the preparer's cost centres; `intro` says which RF and what it shows. */
export function MyCostCentresTable({ mine, intro }: { mine: MyCostCentres; intro: string }) {
  return (
    <>
      <p>{intro}</p>
      <DataTable
        columns={COLUMNS}
        rows={mine.rows}
        getRowId={(row) => row.cost_center_concat}
        paging={false}
        emptyText={boardTexts.empty}
        caption={boardTexts.mineCaption}
      />
    </>
  );
}
