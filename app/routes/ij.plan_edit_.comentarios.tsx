// Screen: Comments on the planning grid's rows: /ij/plan_edit/comentarios?linha={id}.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { planningCellTarget } from "~/features/planning/comments.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { commentTexts } from "~/platform/comments/texts";
import { CellThreadPage } from "~/platform/comments/thread-page";
import { loadThreadPage, threadAction } from "~/platform/comments/threads.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: page ? commentTexts.titleOf(page.thread.label) : commentTexts.title },
];

/** The planning row `?linha=` names (404 when there is none). */
async function targetOf(request: Request) {
  const target = await planningCellTarget(new URL(request.url).searchParams.get("linha") ?? "");
  if (!target) throw data(commentTexts.errors.unknownCell, { status: 404 });
  return target;
}

/** A planning row's comments, for whoever may read the planning grid (each row of the grid links its thread). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit_.comentarios", request);
  return { thread: await loadThreadPage(await targetOf(request), user) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit_.comentarios", request);
  const answer = await threadAction(await targetOf(request), user, request);
  return answer instanceof Response ? answer : data(answer, { status: 400 });
}

export default function PlanningCommentsPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return <CellThreadPage page={page.thread} error={answer?.message ?? null} typed={answer?.text ?? ""} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
