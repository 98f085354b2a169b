// Screen: The user's own settings: /user/settings (e-mail notices, job notices, on call).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { loadSettingsPage, settingsAction } from "~/features/notices/pages.server";
import { NOTICES_PATH } from "~/features/notices/paths";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import "~/features/notices/notices.css";
import { noticeTexts, savedViewTexts, tokenTexts } from "~/messages";
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
          <Switch
            name="emailNotices"
            checked={settings.emailNotices}
            label={noticeTexts.emailNotices}
            help={noticeTexts.emailNoticesHelp}
          />
          <Switch
            name="jobSuccessNotices"
            checked={settings.jobSuccessNotices}
            label={noticeTexts.jobSuccessNotices}
            help={noticeTexts.jobSuccessNoticesHelp}
          />
          {settings.canChooseOnCall ? (
            <Switch
              name="onCallFailures"
              checked={settings.onCallFailures}
              label={noticeTexts.onCallFailures}
              help={noticeTexts.onCallFailuresHelp}
            />
          ) : null}
        </fieldset>
        <button type="submit" className="button button--primary">
          {noticeTexts.save}
        </button>
      </Form>
      <p>
        <Link to={NOTICES_PATH}>{noticeTexts.settingsLink}</Link>
      </p>
      <p>
        <Link to="/user/tokens">{tokenTexts.menu}</Link>: {tokenTexts.settingsHint}
      </p>
      <p>
        <Link to="/user/visoes">{savedViewTexts.title}</Link>: {savedViewTexts.settingsHint}
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/** One preference: a checkbox named as the form field, its label and its help (keyed by the stored value, so a save's
 * reload shows it). */
function Switch({ name, checked, label, help }: { name: string; checked: boolean; label: string; help: string }) {
  return (
    <div className="notice-settings__switch">
      <input
        type="checkbox"
        id={name}
        name={name}
        key={String(checked)}
        defaultChecked={checked}
        aria-describedby={`${name}-help`}
      />
      <div>
        <label htmlFor={name}>{label}</label>
        <p id={`${name}-help`} className="notice-settings__help">
          {help}
        </p>
      </div>
    </div>
  );
}
