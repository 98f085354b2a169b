import { Form, Link } from "@remix-run/react";
import { type ColumnDef, DataTable, type DataTableColumnMeta } from "~/shared/ui/data-table";
import { type ListState, preparersHref } from "./paths";
import type { ScreenData, ScreenError } from "./screen-data";
import { preparersTexts as t } from "./texts";

/** The preparers' screen's tables, each the shared DataTable shown whole (the cost centres page with their own links). */

const TABLE_CLASS = "forecast-calendar__table";

type Refused = NonNullable<NonNullable<ScreenData["notice"]>["refused"]>["rows"][number];
type Suggestion = NonNullable<ScreenData["suggestion"]>;
type Proposal = Suggestion["proposals"][number];
type Unmatched = Suggestion["unmatched"][number];
type CostCenterRow = ScreenData["rows"][number];

function text<Row>(id: string, header: string, get: (row: Row) => string | number): ColumnDef<Row, unknown> {
  return { id, header, cell: ({ row }) => get(row.original) };
}

/** A template's refused rows: line, cost centre, e-mail and why. */
export function RefusedRowsTable({ rows }: { rows: Refused[] }) {
  const columns = [
    text<Refused>("line", t.columnLine, (r) => r.line),
    text<Refused>("costCenter", t.columnCostCenter, (r) => r.costCenter),
    text<Refused>("email", t.columnEmail, (r) => r.email),
    text<Refused>("reason", t.columnReason, (r) => r.reason),
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      getRowId={(r) => `${r.line}-${r.costCenter}-${r.email}`}
      paging={false}
      emptyText=""
      caption={t.refusedCaption}
      showCaption
      className={TABLE_CLASS}
    />
  );
}

/** The pairs the suggestion proposes: FP&A unit and cost centre, the portal's cost centre and the user. */
export function ProposalsTable({ proposals }: { proposals: Proposal[] }) {
  const columns = [
    text<Proposal>("unit", t.columnUnit, (p) => p.unit),
    text<Proposal>("source", t.columnFpaCostCenter, (p) => p.source),
    text<Proposal>("costCenter", t.columnCostCenter, (p) => p.cost_center_concat),
    text<Proposal>("user", t.columnUser, (p) => `${p.name} (${p.user})`),
  ];
  return (
    <DataTable
      columns={columns}
      rows={proposals}
      getRowId={(p) => `${p.cost_center_concat}-${p.user}`}
      paging={false}
      emptyText=""
      caption={t.proposalsCaption}
      showCaption
      className={TABLE_CLASS}
    />
  );
}

/** The FP&A responsibles the suggestion could not match, and why. */
export function UnmatchedTable({ unmatched }: { unmatched: Unmatched[] }) {
  const columns = [
    text<Unmatched>("unit", t.columnUnit, (u) => u.unit),
    text<Unmatched>("costCenter", t.columnFpaCostCenter, (u) => u.costCenter),
    text<Unmatched>("person", t.columnFpaPerson, (u) => u.userResponsible),
    text<Unmatched>("reason", t.columnReason, (u) => u.reasonText),
  ];
  return (
    <DataTable
      columns={columns}
      rows={unmatched}
      getRowId={(u, i) => `${u.unit}-${i}`}
      paging={false}
      emptyText=""
      caption={t.unmatchedCaption}
      className={TABLE_CLASS}
    />
  );
}

function PreparersList({ row, state }: { row: CostCenterRow; state: ListState }) {
  if (row.preparers.length === 0) return <em>{t.none}</em>;
  return (
    <ul className="forecast-preparers__list">
      {row.preparers.map((p) => (
        <li key={p.email}>
          {p.name ? `${p.name} ` : ""}
          <span className="forecast-preparers__email">&lt;{p.email}&gt;</span>{" "}
          {p.mayPrepare ? null : (
            <strong className="forecast-preparers__warning">
              ({p.known ? t.cannotEditNow(p.type) : t.notUserNow}){" "}
            </strong>
          )}
          <Link
            to={preparersHref(state, { remover: row.costCenter, usuario: p.email })}
            aria-label={t.removeLink(p.email)}
          >
            {t.remove}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function AddPreparerForm({
  row,
  here,
  busy,
  error,
}: {
  row: CostCenterRow;
  here: string;
  busy: boolean;
  error: ScreenError;
}) {
  if (!row.inForecast) return <em>{t.notInForecast}</em>;
  const errorId = `preparer-error-${row.costCenter.replace(/[^\w-]/g, "_")}`;
  return (
    <>
      <Form method="post" action={here} className="forecast-preparers__add">
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="cost_center_concat" value={row.costCenter} />
        {/* Text, not e-mail: a name is looked up on the server (one person, or several to pick from). */}
        <input
          type="text"
          name="user"
          required
          maxLength={254}
          list={PEOPLE_LIST_ID}
          placeholder={t.emailPlaceholder}
          aria-label={t.emailLabel(row.costCenter)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <button type="submit" className="button button--secondary" disabled={busy}>
          {t.addButton}
        </button>
        {error ? (
          <p className="field__error" id={errorId} role="alert">
            {error.message}
          </p>
        ) : null}
      </Form>
      {error?.choices?.length ? (
        <PersonChoices costCenter={row.costCenter} choices={error.choices} here={here} busy={busy} />
      ) : null}
    </>
  );
}

/** The people a name matched, each a button adding that one (its own form: only the pressed button's e-mail is sent). */
function PersonChoices({
  costCenter,
  choices,
  here,
  busy,
}: {
  costCenter: string;
  choices: NonNullable<NonNullable<ScreenError>["choices"]>;
  here: string;
  busy: boolean;
}) {
  return (
    <Form method="post" action={here} className="forecast-preparers__choices" aria-label={t.choicesLabel(costCenter)}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="cost_center_concat" value={costCenter} />
      <ul>
        {choices.map((c) => (
          <li key={c.email}>
            <button type="submit" name="user" value={c.email} className="button button--secondary" disabled={busy}>
              {t.pickChoice(c.name, c.email)}
            </button>
          </li>
        ))}
      </ul>
    </Form>
  );
}

const PEOPLE_LIST_ID = "forecast-preparers-people";

/** The add forms' choices: typing a name or an e-mail narrows them, choosing one fills in the e-mail. */
function PeopleList({ people }: { people: ScreenData["people"] }) {
  return (
    <datalist id={PEOPLE_LIST_ID}>
      {people.map((p) => (
        <option key={p.email} value={p.email} label={p.name ? `${p.name} (${p.email})` : p.email} />
      ))}
    </datalist>
  );
}

/** The page of cost centres: each with its preparers (a remove link each) and a form to add one. */
export function CostCentersTable({
  data,
  error,
  here,
  busy,
}: {
  data: ScreenData;
  error: ScreenError;
  here: string;
  busy: boolean;
}) {
  const columns: ColumnDef<CostCenterRow, unknown>[] = [
    {
      ...text<CostCenterRow>("costCenter", t.columnCostCenter, (r) => r.costCenter),
      meta: { rowHeader: true } satisfies DataTableColumnMeta<CostCenterRow>,
    },
    {
      id: "preparers",
      header: t.columnPreparers,
      cell: ({ row }) => <PreparersList row={row.original} state={data.state} />,
    },
    {
      id: "add",
      header: t.columnAdd,
      cell: ({ row }) => (
        <AddPreparerForm
          row={row.original}
          here={here}
          busy={busy}
          error={error?.costCenter === row.original.costCenter ? error : null}
        />
      ),
    },
  ];
  return (
    <>
      <DataTable
        columns={columns}
        rows={data.rows}
        getRowId={(r) => r.costCenter}
        paging={false}
        emptyText=""
        caption={t.tableCaption}
        className={`${TABLE_CLASS} forecast-preparers__table`}
      />
      <PeopleList people={data.people} />
    </>
  );
}
