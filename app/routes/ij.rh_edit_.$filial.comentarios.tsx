// Screen: Comments on the HR grid's rows: /ij/rh_edit/{filial}/comentarios.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { hrCellTarget, hrThreads } from "~/features/hr/comments.server";
import { FILIAL_MAX, hrGridPath } from "~/features/hr/paths";
import { hrTexts } from "~/features/hr/texts";
import { branchScopeOf, branchVisible } from "~/models/hr.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { commentTexts } from "~/platform/comments/texts";
import { CellThreadList, CellThreadPage } from "~/platform/comments/thread-page";
import { loadThreadPage, threadAction } from "~/platform/comments/threads.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: page?.kind === "thread" ? commentTexts.titleOf(page.thread.label) : commentTexts.title },
];

/**
 * The branch a request names, when the user may see it (the grid's branch scope: another branch answers like one
 * that does not exist), and the row `?registro=` names, if any (404 when the branch has no such row).
 */
async function targetOf(request: Request, filialParam: string | undefined, email: string) {
  const filial = filialParam ?? "";
  if (filial.length > FILIAL_MAX || !(await branchVisible(filial, await branchScopeOf(email))))
    throw data(hrTexts.branchNotFound(filial.slice(0, FILIAL_MAX)), { status: 404 });
  const id = new URL(request.url).searchParams.get("registro");
  if (id === null) return { filial, target: null };
  const target = await hrCellTarget(filial, id);
  if (!target) throw data(commentTexts.errors.unknownCell, { status: 404 });
  return { filial, target };
}

/**
 * The comments of a branch's HR rows, for whoever may read the grid and see the branch: with `?registro=` one row's
 * thread and its form, without it the branch's commented rows (each row of the grid links its own thread).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit_.$filial.comentarios", request);
  const { filial, target } = await targetOf(request, params.filial, user.email);
  if (target) return { kind: "thread" as const, thread: await loadThreadPage(target, user) };
  return {
    kind: "list" as const,
    place: `Auxiliar Padrão · ${filial}`,
    gridHref: hrGridPath(filial),
    rows: await hrThreads(filial),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit_.$filial.comentarios", request);
  const { target } = await targetOf(request, params.filial, user.email);
  if (!target) throw data(commentTexts.errors.unknownCell, { status: 404 });
  const answer = await threadAction(target, user, request);
  return answer instanceof Response ? answer : data(answer, { status: 400 });
}

export default function HrCommentsPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (page.kind === "thread")
    return <CellThreadPage page={page.thread} error={answer?.message ?? null} typed={answer?.text ?? ""} />;
  return <CellThreadList place={page.place} gridHref={page.gridHref} rows={page.rows} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
