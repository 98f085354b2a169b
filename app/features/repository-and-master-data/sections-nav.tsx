import { Form, Link, useLocation } from "@remix-run/react";
import { useId, useMemo } from "react";
import { messages } from "~/messages";
import { NAV_LABELS } from "~/navigation-labels";
import { type ColumnDef, DataTable, searchWith } from "~/shared/ui/data-table";
import { TabsNav } from "~/shared/ui/tabs-nav";
import { masterDataTexts } from "./texts";
import "./master-data.css";
import { FILE_PARAM } from "~/models/master-data.fields";

/** Headings of the master-data screens: the side menu's entry, then each screen's own name. */
export const MASTER_DATA_TITLES = {
  repositoryMaster: NAV_LABELS.repositoryMaster,
  channel: masterDataTexts.masterDataTabs.channel,
  planning: masterDataTexts.masterDataPlanningTitle,
} as const;

/**
 * The top tabs of the master-data screens (spec 000 §2: Product, Channel, Planning): the three screens, each its
 * own address, so the chosen one is in the URL.
 */
const SECTIONS = [
  { id: "product", label: masterDataTexts.masterDataTabs.product, to: "/repo/master-data" },
  { id: "canal", label: masterDataTexts.masterDataTabs.channel, to: "/repo/master-data/canal" },
  { id: "planejamento", label: masterDataTexts.masterDataTabs.planning, to: "/repo/master-data/planejamento" },
] as const;

export function MasterDataSectionsNav({ current }: { current: (typeof SECTIONS)[number]["id"] }) {
  return <TabsNav tabs={SECTIONS} current={current} label={MASTER_DATA_TITLES.repositoryMaster} />;
}

export type MasterDataTableData = {
  columns: { key: string; header: string }[];
  /** `file`: the upload the row came from, by its original name (null for paths without an upload record). */
  rows: {
    id: string;
    cells: Record<string, string>;
    file?: { name: string; href: string | null; key: string } | null;
  }[];
  count: number;
  page: number;
  pageSize: number;
};

type Row = MasterDataTableData["rows"][number];

/**
 * A master-data base as the shared DataTable: 20 rows per page, "No data found" when empty. Each header is the
 * column's label with the field name as its tooltip; each `urlPath` cell narrows the table to that file's rows.
 */
export function MasterDataTable({ data, caption }: { data: MasterDataTableData; caption: string }) {
  const location = useLocation();
  const columns = useMemo<ColumnDef<Row, string>[]>(
    () =>
      data.columns.map((column) => ({
        id: column.key,
        header: () => (
          <span className="column-label" title={column.key} data-field={column.key}>
            {column.header}
          </span>
        ),
        accessorFn: (row: Row) => row.cells[column.key] ?? "",
        cell:
          column.key === "urlPath"
            ? ({ getValue, row }) => {
                const file = getValue();
                if (!file) return null;
                const named = row.original.file;
                if (!named) {
                  return (
                    <Link
                      to={searchWith(location.search, { [FILE_PARAM]: file, page: null })}
                      title={masterDataTexts.masterDataFilterByFile(file)}
                    >
                      {file}
                    </Link>
                  );
                }
                // The name the file was uploaded under, to download it; its key as a tooltip; and the filter by it.
                return (
                  <span className="master-data__file">
                    {named.href ? (
                      <a href={named.href} title={named.key} download={named.name}>
                        {named.name}
                      </a>
                    ) : (
                      <span title={named.key}>{named.name}</span>
                    )}{" "}
                    <Link
                      className="master-data__file-filter-link"
                      to={searchWith(location.search, { [FILE_PARAM]: named.name, page: null })}
                      aria-label={masterDataTexts.masterDataFilterByFile(named.name)}
                      title={masterDataTexts.masterDataFilterByFile(named.name)}
                    >
                      {masterDataTexts.masterDataFilter}
                    </Link>
                  </span>
                );
              }
            : ({ getValue }) => getValue(),
      })),
    [data.columns, location.search],
  );
  return (
    <DataTable
      columns={columns}
      rows={data.rows}
      getRowId={(row) => row.id}
      rowCount={data.count}
      page={data.page}
      pageSize={data.pageSize}
      emptyText={messages.noDataFound}
      caption={caption}
    />
  );
}

/**
 * Narrows a base to the rows of one imported file (its urlPath, as the table's Arquivo column shows it): a GET
 * form, so the filter is in the URL and works without JavaScript; the other parameters of the page are kept and
 * the page starts again at 1.
 */
export function FileFilter({ file, keep }: { file: string | null; keep: Record<string, string | null> }) {
  const inputId = useId();
  const location = useLocation();
  const kept = Object.entries(keep).filter((entry): entry is [string, string] => entry[1] !== null);
  return (
    <Form method="get" className="master-data__file-filter" key={file ?? ""}>
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="field">
        <label htmlFor={inputId}>{masterDataTexts.masterDataFileFilter}</label>
        <input
          id={inputId}
          type="search"
          name={FILE_PARAM}
          defaultValue={file ?? ""}
          maxLength={1024}
          spellCheck={false}
        />
      </div>
      <button type="submit" className="button button--secondary">
        {masterDataTexts.masterDataFilter}
      </button>
      {file ? (
        <p className="master-data__filtered" role="status">
          {masterDataTexts.masterDataFilteredBy(file)}{" "}
          <Link to={searchWith(location.search, { [FILE_PARAM]: null, page: null })}>
            {masterDataTexts.masterDataClearFilter}
          </Link>
        </p>
      ) : null}
    </Form>
  );
}
