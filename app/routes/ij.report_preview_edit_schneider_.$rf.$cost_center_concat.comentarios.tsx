// Screen: Comments on the review's cells: /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}/comentarios.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { forecastCellTarget, forecastThreads, reviewAccounts } from "~/features/forecast/comments.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { windowMonths } from "~/features/forecast/release-points";
import { type ReviewReader, resolveReview } from "~/features/forecast/review.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { commentTexts } from "~/platform/comments/texts";
import { CellThreadList, CellThreadPage } from "~/platform/comments/thread-page";
import { inPlace, loadThreadPage, threadAction } from "~/platform/comments/threads.server";
import { monthKey, monthLabel } from "~/shared/months";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: page?.kind === "thread" ? commentTexts.titleOf(page.thread.label) : commentTexts.title },
];

/** The review's cell a request names (`?conta=&mes=`), or null when it names none; a 404 when the review has no such cell. */
async function targetOf(request: Request, params: LoaderFunctionArgs["params"], user: ReviewReader) {
  const lookup = await resolveReview(params, user);
  if (!lookup.ok) throw data(lookup.message, { status: lookup.status });
  const url = new URL(request.url);
  const account = url.searchParams.get("conta");
  const month = url.searchParams.get("mes");
  if (account === null && month === null) return { review: lookup.review, target: null };
  const target = await forecastCellTarget(lookup.review, account ?? "", month ?? "");
  if (!target) throw data(commentTexts.errors.unknownCell, { status: 404 });
  return { review: lookup.review, target };
}

/**
 * The comments of the forecast review's cells (anyone who may read the review: a submitted cost centre is still
 * discussed). With `?conta=&mes=` one cell's thread and its form; without, the review's commented cells and a way to
 * open any cell's thread (the page without JavaScript; the grid opens a thread with Shift+F2).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios",
    request,
  );
  const { review, target } = await targetOf(request, params, user);
  if (target) return { kind: "thread" as const, thread: await loadThreadPage(target, user) };
  const rf = review.calendar.name;
  const cc = review.costCenter.cost_center_concat;
  const [rows, accounts] = await Promise.all([forecastThreads(review), reviewAccounts(review)]);
  return {
    kind: "list" as const,
    place: `Forecast ${rf} · ${cc}`,
    gridHref: reviewPath(rf, cc),
    rows,
    accounts,
    months: windowMonths(review.calendar).map((m) => ({ key: monthKey(m), label: monthLabel(m) })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios",
    request,
  );
  const { target } = await targetOf(request, params, user);
  if (!target) throw data(commentTexts.errors.unknownCell, { status: 404 });
  const answer = await threadAction(target, user, request);
  // The grid's side panel (`&painel=1`) stays beside the grid: answered in place, not redirected to this page.
  if (PANEL.safeParse(new URL(request.url).searchParams.get("painel")).success) {
    const { body, headers } = await inPlace(answer);
    return data(body, { status: body.ok ? 200 : 400, headers });
  }
  return answer instanceof Response ? answer : data(answer, { status: 400 });
}

const PANEL = z.literal("1");

export default function ReviewCommentsPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (page.kind === "thread")
    return <CellThreadPage page={page.thread} error={answer?.message ?? null} typed={answer?.text ?? ""} />;
  return (
    <CellThreadList place={page.place} gridHref={page.gridHref} rows={page.rows}>
      <Form method="get" className="cell-thread__picker">
        <label>
          {commentTexts.pickAccount}{" "}
          <select name="conta" required>
            {page.accounts.map((a) => (
              <option key={a.account} value={a.account}>
                {a.account}
              </option>
            ))}
          </select>
        </label>
        <label>
          {commentTexts.pickMonth}{" "}
          <select name="mes" required>
            {page.months.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--secondary">
          {commentTexts.openCell}
        </button>
      </Form>
    </CellThreadList>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
