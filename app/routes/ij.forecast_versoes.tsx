// Screen: Forecast versions: /ij/forecast_versoes.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CONSOLIDATED_PATH } from "~/features/forecast/consolidated/query";
import { versionTexts as t } from "~/features/forecast/versions/texts";
import { deleteNamedVersion, loadVersionList } from "~/features/forecast/versions/versions.server";
import { VersionsList } from "~/features/forecast/versions/versions-list";
import { messages } from "~/messages";
import { canWriteRoute, requireRouteAccess } from "~/platform/auth/auth.server";
import { readLimitedText } from "~/shared/request-body.server";
import { redirectWithToast } from "~/shared/toast.server";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/forecast/consolidated/consolidated.css";
import "~/features/forecast/versions/versions.css";
import { VERSION_DELETE_FORM_MAX_BYTES } from "~/features/forecast/versions/limits";

export const meta: MetaFunction = () => [{ title: t.title }];

/**
 * /ij/forecast_versoes?rf=&page=&aprovacoes=: the versions people saved and the closings, newest first, then the
 * approvals under their cost centre, each paged; with the viewer's totals.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_versoes", request);
  const list = await loadVersionList(new URL(request.url).searchParams, user);
  return { ...list, canDelete: canWriteRoute(user, "routes/ij.forecast_versoes") };
}

/** POST intent=excluir, id, motivo: deletes a version (SYSTEM ADMIN: the route's write rule). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_versoes", request, "write");
  const text = await readLimitedText(request, VERSION_DELETE_FORM_MAX_BYTES).catch(() => null);
  const form = text === null ? null : new URLSearchParams(text);
  if (form?.get("intent") !== "excluir") return data({ error: messages.badRequest }, { status: 400 });
  const outcome = await deleteNamedVersion(form, user);
  if (!outcome.ok) return data({ error: outcome.message }, { status: outcome.message === t.notFound ? 404 : 400 });
  const back = new URL(request.url);
  return redirectWithToast(`${back.pathname}${back.search}`, { description: outcome.message });
}

export default function ForecastVersionsPage() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="versions">
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      <p>
        <Link to={`${CONSOLIDATED_PATH}${page.rf ? `?rf=${encodeURIComponent(page.rf)}` : ""}`}>
          {t.consolidatedLink}
        </Link>
      </p>
      {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
      <Form method="get" className="consolidated__filters">
        <label>
          {t.rf}
          <select name="rf" defaultValue={page.rf ?? ""}>
            <option value="">{t.all}</option>
            {page.scenarios.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button button--secondary">
          {t.filter}
        </button>
      </Form>
      <VersionsList
        company={{ rows: page.rows, total: page.total, page: page.page }}
        approvals={page.approvals}
        canDelete={page.canDelete}
        scoped={page.scoped}
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
