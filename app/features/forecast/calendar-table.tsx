import { Link } from "@remix-run/react";
import { type ColumnDef, DataTable, type DataTableColumnMeta } from "~/shared/ui/data-table";
import { forecastTexts } from "./texts";

/** A period of the review calendar (/ij/report_preview_schneider), as its route loads it. */
export type CalendarRow = {
  name: string;
  anchor: string;
  editMonth: string;
  window: string;
  open: boolean;
  costCenters: number;
  href: string;
};

const text = (id: string, header: string, get: (row: CalendarRow) => string): ColumnDef<CalendarRow, unknown> => ({
  id,
  header,
  cell: ({ row }) => get(row.original),
});

const columns: ColumnDef<CalendarRow, unknown>[] = [
  {
    ...text("name", forecastTexts.columnPeriod, (r) => r.name),
    meta: { rowHeader: true } satisfies DataTableColumnMeta<CalendarRow>,
  },
  text("anchor", forecastTexts.columnAnchor, (r) => r.anchor),
  text("editMonth", forecastTexts.columnEditMonth, (r) => r.editMonth),
  text("window", forecastTexts.columnWindow, (r) => r.window),
  text("state", forecastTexts.columnState, (r) => (r.open ? forecastTexts.stateOpen : forecastTexts.stateLocked)),
  {
    ...text("costCenters", forecastTexts.columnCostCenters, (r) => r.costCenters.toLocaleString("pt-BR")),
    meta: { cellClassName: "forecast-calendar__number" } satisfies DataTableColumnMeta<CalendarRow>,
  },
  {
    id: "review",
    header: () => <span className="visually-hidden">{forecastTexts.review}</span>,
    cell: ({ row }) => (
      <Link to={row.original.href} aria-label={forecastTexts.reviewOf(row.original.name)}>
        {forecastTexts.review}
      </Link>
    ),
  },
];

/** Every period with its anchor, edit month, window, whether it is open today (set apart) and its cost centres. */
export function CalendarTable({ rows }: { rows: CalendarRow[] }) {
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(row) => row.name}
      paging={false}
      emptyText={forecastTexts.noScenarios}
      caption={forecastTexts.calendarTitle}
      className="forecast-calendar__table"
      rowAttributes={(row) => ({ className: row.open ? "is-open" : undefined })}
    />
  );
}
