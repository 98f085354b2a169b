// Screen: The user's own settings: /user/settings (issues 52 and 54).
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRouteAccess } from "~/features/access/auth.server";
import { loadSettingsPage, settingsAction } from "~/features/notices/pages.server";
import { NOTICES_PATH } from "~/features/notices/paths";
import "~/features/notices/notices.css";
import { noticeTexts } from "~/messages";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: noticeTexts.settingsTitle }];

/**
 * /user/settings: the signed-in user's own preferences, one form (more switches join the fieldsets below). A plain
 * form post, so it works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.settings", request);
  return data(await loadSettingsPage(user.email, user.type), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/user.settings", request);
  return settingsAction(user.email, request, new Date(), user.type);
}

export default function UserSettings() {
  const settings = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <section aria-labelledby="settings-title" className="notice-settings">
      <h1 id="settings-title">{noticeTexts.settingsTitle}</h1>
      <p>{noticeTexts.settingsIntro}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Form method="post">
        <input type="hidden" name="intent" value="save" />
        <fieldset>
          <legend>{noticeTexts.noticesSection}</legend>
          <div className="notice-settings__switch">
            <input
              type="checkbox"
              id="emailNotices"
              name="emailNotices"
              key={String(settings.emailNotices)}
              defaultChecked={settings.emailNotices}
              aria-describedby="emailNotices-help"
            />
            <div>
              <label htmlFor="emailNotices">{noticeTexts.emailNotices}</label>
              <p id="emailNotices-help" className="notice-settings__help">
                {noticeTexts.emailNoticesHelp}
              </p>
            </div>
          </div>
          <div className="notice-settings__switch">
            <input
              type="checkbox"
              id="jobSuccessNotices"
              name="jobSuccessNotices"
              key={String(settings.jobSuccessNotices)}
              defaultChecked={settings.jobSuccessNotices}
              aria-describedby="jobSuccessNotices-help"
            />
            <div>
              <label htmlFor="jobSuccessNotices">{noticeTexts.jobSuccessNotices}</label>
              <p id="jobSuccessNotices-help" className="notice-settings__help">
                {noticeTexts.jobSuccessNoticesHelp}
              </p>
            </div>
          </div>
          {settings.canChooseOnCall ? (
            <div className="notice-settings__switch">
              <input
                type="checkbox"
                id="onCallFailures"
                name="onCallFailures"
                key={String(settings.onCallFailures)}
                defaultChecked={settings.onCallFailures}
                aria-describedby="onCallFailures-help"
              />
              <div>
                <label htmlFor="onCallFailures">{noticeTexts.onCallFailures}</label>
                <p id="onCallFailures-help" className="notice-settings__help">
                  {noticeTexts.onCallFailuresHelp}
                </p>
              </div>
            </div>
          ) : null}
        </fieldset>
        <button type="submit" className="button button--primary">
          {noticeTexts.save}
        </button>
      </Form>
      <p>
        <Link to={NOTICES_PATH}>{noticeTexts.settingsLink}</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
