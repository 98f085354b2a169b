// Screen: HR auxiliary data editor: /ij/rh_edit/{filial}.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { CommentDialog } from "~/features/hr/comment-dialog";
import { COMMENT_PARAM, hrGridShouldRevalidate } from "~/features/hr/comment-param";
import { ConfirmChangesDialog, ServerConfirmDialog } from "~/features/hr/confirm-dialogs";
import { type HrGridActionData, loadHrGrid, saveHrGrid } from "~/features/hr/grid-page.server";
import { BranchNotFound, GridPanel, MonthToolbar } from "~/features/hr/grid-panel";
import { HrLoadFailed } from "~/features/hr/load-failed";
import { hrGridPath, hrPickerPath } from "~/features/hr/paths";
import { useGridEdits } from "~/features/hr/use-grid-edits";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { redirectToDefaultView } from "~/features/saved-views/views.server";
import { hrTexts, messages } from "~/messages";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { monthLabel } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/hr/hr.css";
import "~/shared/ui/data-table.css";

export const meta: MetaFunction = () => [{ title: hrTexts.title }];

/**
 * /ij/rh_edit/{filial}?mes_inicio=AAAA-MM&mes_fim=AAAA-MM — the branch's auxiliary rows and people
 * (features/hr/grid-page.server.ts). Editors (HR_EDITOR_TYPES) edit the five figures and the comment; the other
 * admitted types see the same grid read-only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit.$filial", request);
  await redirectToDefaultView(user, request);
  return loadHrGrid(request, params.filial, user.email, canWriteRoute(user, "routes/ij.rh_edit.$filial"));
}

export const shouldRevalidate = hrGridShouldRevalidate;

/**
 * intent=save (the figures, confirmed or not) and intent=comment. The saving permission is judged before the form
 * is read (as every route's write rule is): a reader's post gets 403 whatever it carries.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit.$filial", request, "write");
  return saveHrGrid(request, params.filial, user.email, user);
}

export default function HrGridPage() {
  const page = useLoaderData<typeof loader>();
  // The action answers HrGridActionData or a redirect (with its toast).
  const actionData = useActionData<typeof action>() as HrGridActionData | undefined;
  const navigation = useNavigation();
  const location = useLocation();
  const navigate = useNavigate();
  const gridUrl = hrGridPath(page.filial, page.range ?? undefined);
  const grid = useGridEdits(page, gridUrl, actionData);
  const commentId = new URLSearchParams(location.search).get(COMMENT_PARAM);
  const commentRow = page.canEdit && commentId ? grid.rowsById.get(commentId) : undefined;

  const saving = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname && !saving;
  const pageError =
    grid.clientError ?? actionData?.error ?? (actionData?.commentError && !commentRow ? actionData.commentError : null);

  return (
    <>
      <section className="hr-page hr-page--grid" aria-labelledby="hr-title" aria-busy={loading || saving}>
        <nav className="hr-breadcrumb" aria-label={hrTexts.filtering}>
          <Link to={hrPickerPath(page.filial, page.range ?? undefined)}>{hrTexts.filtering}</Link>
          <span aria-hidden="true"> / </span>
          <span aria-current="page">{hrTexts.title}</span>
        </nav>
        <h1 id="hr-title">{hrTexts.title}</h1>
        <p className="hr-page__branch">
          {hrTexts.filial}: <strong>{page.filial}</strong>
        </p>

        {page.notFound ? (
          <BranchNotFound filial={page.filial} />
        ) : (
          <>
            <MonthToolbar
              key={`${page.months.from}\u0000${page.months.to}`}
              filial={page.filial}
              months={page.months}
              error={page.monthError}
            />
            {page.canEdit ? null : <Alert tone="info">{hrTexts.readOnly}</Alert>}
            {pageError ? <Alert tone="error">{pageError}</Alert> : null}
            <p className="hr-status" role="status">
              {saving ? messages.savingData : loading ? hrTexts.loading : ""}
            </p>

            {page.range ? (
              <GridPanel
                page={{ ...page, range: page.range }}
                grid={grid}
                gridUrl={gridUrl}
                saving={saving}
                serverErrors={actionData?.fieldErrors}
              />
            ) : null}
          </>
        )}

        {commentRow ? (
          <CommentDialog
            key={commentRow.id}
            row={{
              id: commentRow.id,
              nome: commentRow.nome,
              month: monthLabel(commentRow.mes_apur),
              comentario: commentRow.comentario,
            }}
            max={page.commentMax}
            action={grid.commentHref(commentRow.id)}
            closeHref={gridUrl}
            onClose={() => navigate(gridUrl, { replace: true, preventScrollReset: true })}
            error={actionData?.commentError ?? null}
            busy={saving}
            saveId={page.saveId}
          />
        ) : null}
        <ConfirmChangesDialog
          open={grid.confirming}
          onOpenChange={grid.setConfirming}
          changes={grid.pending.changes}
          onConfirm={grid.confirmSave}
        />
        {actionData?.confirm ? (
          <ServerConfirmDialog
            confirm={actionData.confirm}
            gridUrl={gridUrl}
            saving={saving}
            onClose={() => navigate(gridUrl, { replace: true })}
          />
        ) : null}
      </section>
      <SaveViewForm />
    </>
  );
}

/** A loading failure (the database did not answer): say so and offer to try again; 403/404 as everywhere. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && (error.status === 403 || error.status === 404)) return <GeneralErrorBoundary />;
  return <HrLoadFailed />;
}
