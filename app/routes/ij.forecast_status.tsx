// Screen: Forecast cycle status board: /ij/forecast_status.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Breadcrumb } from "~/features/forecast/breadcrumb";
import { type BoardRow, loadBoard, parseBoardQuery } from "~/features/forecast/cycle/board.server";
import { BoardDecisionForm, DecisionAnswer, decisionColumn } from "~/features/forecast/cycle/board-decision";
import { BOARD_PAGE_SIZE, boardHref } from "~/features/forecast/cycle/board-links";
import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { decideMany } from "~/features/forecast/cycle/bulk-decision.server";
import { reviewerTypes } from "~/features/forecast/cycle/cycle.server";
import { FILTER_PATH, reviewPath } from "~/features/forecast/forecast-filter";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import "~/features/forecast/cycle/cycle.css";
import { CycleStateBadge } from "~/features/forecast/cycle/state-badge";
import { portalToday } from "~/shared/clock.server";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { uiTexts } from "~/shared/ui/texts";

export const meta: MetaFunction = () => [{ title: boardTexts.title }];

/**
 * /ij/forecast_status?rf=&estado=&nivel=&page=: the forecast cycle of one RF for its reviewers and the administrators
 * (docs/decisions.md "Forecast cycle"). The filters are a GET form, so the URL keeps them and Back returns to them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_status", request);
  const query = parseBoardQuery(new URL(request.url).searchParams);
  const board = await loadBoard(query, portalToday(), reviewPath);
  const canDecide = reviewerTypes().includes(user.type);
  return { board, query, canDecide, excelHref: boardHref({ ...query, rf: board.rf, page: 1 }, true) };
}

/** Approve or return the submitted cost centres ticked on the board, each on its own (bulk-decision.server.ts). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_status", request, "write");
  if (!reviewerTypes().includes(user.type)) throw new Response(uiTexts.forbidden, { status: 403 });
  const outcome = await decideMany(await request.formData(), user, portalToday());
  return data(outcome, { status: outcome.ok ? 200 : outcome.status });
}

const columns: ColumnDef<BoardRow, unknown>[] = [
  {
    id: "cc",
    header: boardTexts.costCenter,
    cell: ({ row }) => (
      <Link to={row.original.href} className="forecast-board__cc">
        {row.original.cost_center_concat}
      </Link>
    ),
  },
  // The state right after the cost centre: on a phone it is what the reviewer reads first.
  {
    id: "state",
    header: boardTexts.state,
    cell: ({ row }) => <CycleStateBadge code={row.original.state} label={row.original.stateLabel} />,
  },
  { id: "level", header: boardTexts.level, accessorFn: (r) => r.level },
  { id: "preparers", header: boardTexts.preparers, accessorFn: (r) => r.preparers },
  { id: "last", header: boardTexts.lastChange, accessorFn: (r) => r.lastChange },
  { id: "by", header: boardTexts.lastChangeBy, accessorFn: (r) => r.lastChangeBy },
  {
    id: "days",
    header: boardTexts.daysLeft,
    accessorFn: (r) => (r.daysLeft === null ? boardTexts.ended : String(r.daysLeft)),
  },
];

export default function ForecastStatusPage() {
  const { board, query, canDecide, excelHref } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const decidable = canDecide && board.rows.some((r) => r.decision !== null);
  return (
    <section className="forecast-board">
      <Breadcrumb filterHref={FILTER_PATH} current={boardTexts.title} />
      <h1>{boardTexts.title}</h1>
      <p>{boardTexts.intro}</p>
      {board.rf === null ? (
        <Alert tone="info">{boardTexts.noScenarios}</Alert>
      ) : (
        <>
          <Form method="get" className="forecast-board__filters">
            <label>
              {boardTexts.rf}
              <select name="rf" defaultValue={board.rf}>
                {board.scenarios.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {boardTexts.stateFilter}
              <select name="estado" defaultValue={query.state ?? ""}>
                <option value="">{boardTexts.all}</option>
                {board.counts.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {boardTexts.levelFilter}
              <select name="nivel" defaultValue={query.level ?? ""}>
                <option value="">{boardTexts.all}</option>
                {board.levels.map((level) => (
                  <option key={level} value={level}>
                    {level}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button button--secondary">
              {boardTexts.apply}
            </button>
            <a className="button button--secondary" href={excelHref} download>
              {boardTexts.export}
            </a>
          </Form>
          {/* The counts per state, each a link to the board narrowed to it: a list that wraps on a phone. */}
          <section className="forecast-board__counts" aria-labelledby="forecast-board-counts">
            <h2 id="forecast-board-counts" className="forecast-board__counts-title">
              {boardTexts.countsCaption(board.rf, board.total)} {board.editMonth}
            </h2>
            <ul>
              {board.counts.map((c) => (
                <li key={c.code} data-state={c.code}>
                  <Link to={boardHref({ rf: board.rf, state: c.code, level: query.level })}>{c.label}</Link>
                  <span>
                    {c.count.toLocaleString("pt-BR")} ({c.percent})
                  </span>
                </li>
              ))}
            </ul>
          </section>
          {decidable && board.rf ? (
            <BoardDecisionForm rf={board.rf} answer={answer} />
          ) : answer ? (
            <DecisionAnswer answer={answer} />
          ) : null}
          <DataTable
            columns={decidable ? [decisionColumn, ...columns] : columns}
            rows={board.rows}
            getRowId={(r) => r.cost_center_concat}
            rowCount={board.filtered}
            page={board.page}
            pageSize={BOARD_PAGE_SIZE}
            emptyText={boardTexts.empty}
            caption={boardTexts.title}
          />
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
