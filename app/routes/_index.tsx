import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { landingFor } from "~/access";
import { assertSameOrigin, getOptionalUser, SESSION_EXPIRED_PARAM } from "~/auth.server";
import { FirstAccessForm, type FieldErrors } from "~/components/access/first-access-form";
import { ForgotPasswordDialog, type ForgotPasswordState } from "~/components/access/forgot-password-dialog";
import { LoginForm } from "~/components/access/login-form";
import { PageDialog } from "~/components/access/page-dialog";
import { SessionExpiredDialog } from "~/components/access/session-expired-dialog";
import "~/components/access/access.css";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { completeFirstAccess, listTenantDashboards, requestPasswordReset, signInWithPassword } from "~/services/accounts.server";
import { getClientIp } from "~/services/login-limit.server";
import { getSsoEntry } from "~/services/sso/sso.server";

export const meta: MetaFunction = () => [{ title: messages.loginTitle }];

/**
 * `/`, the login screen (spec 000 §2, §4, §5, §8): e-mail + password, first access (new password required),
 * the forgot-password dialog (`?forgot=1`), the session-expired modal (`?expired=1`) and the SSO button.
 * A signed-in visitor goes to the landing page of their type.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) {
    const dashboards = user.type === "SYSTEM ADMIN" || user.type === "USER GOLD" ? await listTenantDashboards() : [];
    throw redirect(landingFor(user.type, dashboards, getConfig().features));
  }
  const url = new URL(request.url);
  return data(
    {
      sso: getSsoEntry(),
      expired: url.searchParams.get(SESSION_EXPIRED_PARAM) === "1",
      forgot: url.searchParams.get("forgot") === "1",
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

type ActionData =
  | { intent: "signIn"; error: string; email: string }
  | { intent: "newPassword"; step: "form"; email: string; challenge: string; errors?: FieldErrors; formError?: string }
  | { intent: "newPassword"; step: "done" }
  | { intent: "forgot"; sent: true }
  | { intent: "forgot"; sent: false; error: string };

const text = (max: number) => z.string().max(max).optional().default("");

const signInSchema = z.object({ email: text(320).transform((s) => s.trim()), password: text(1024) });
// 2048: the longest challenge session Cognito issues (the local provider's token is far shorter).
const newPasswordSchema = z.object({ email: text(320), challenge: text(2048), password: text(1024), confirmPassword: text(1024) });
const forgotSchema = z.object({ email: text(320).transform((s) => s.trim()) });
const emailSchema = z.string().email();

/** The form fields as strings; a file or an oversized value makes the form unreadable (400). */
function formObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of form.entries()) out[key] = value;
  return out;
}

export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await request.formData().catch(() => null);
  const fields = form ? formObject(form) : {};
  const intent = fields.intent;

  if (intent === "forgot") {
    const parsed = forgotSchema.safeParse(fields);
    const email = parsed.success ? parsed.data.email : "";
    if (!email) return data<ActionData>({ intent, sent: false, error: messages.emailRequired }, { status: 400 });
    if (!emailSchema.safeParse(email).success) return data<ActionData>({ intent, sent: false, error: messages.invalidEmail }, { status: 400 });
    const outcome = await requestPasswordReset({ email });
    if (outcome.kind === "sent") return data<ActionData>({ intent, sent: true });
    const error = outcome.kind === "error" ? outcome.message : messages.invalidEmail;
    return data<ActionData>({ intent, sent: false, error }, { status: 400 });
  }

  if (intent === "newPassword") {
    const parsed = newPasswordSchema.safeParse(fields);
    if (!parsed.success) return data<ActionData>({ intent: "signIn", error: messages.invalidForm, email: "" }, { status: 400 });
    const { email, challenge, password, confirmPassword } = parsed.data;
    const outcome = await completeFirstAccess({ email, challenge, password, confirmPassword });
    switch (outcome.kind) {
      case "ok":
        return data<ActionData>({ intent, step: "done" });
      case "invalidInput":
        return data<ActionData>({ intent, step: "form", email, challenge, errors: outcome.errors }, { status: 400 });
      case "challengeExpired":
        return data<ActionData>({ intent: "signIn", error: messages.firstAccessExpired, email }, { status: 400 });
      case "error":
        return data<ActionData>({ intent, step: "form", email, challenge, formError: outcome.message }, { status: 400 });
    }
  }

  const parsed = signInSchema.safeParse(fields);
  if (!parsed.success) return data<ActionData>({ intent: "signIn", error: messages.invalidForm, email: "" }, { status: 400 });
  const { email, password } = parsed.data;
  if (!email || !password) return data<ActionData>({ intent: "signIn", error: messages.loginRequired, email }, { status: 400 });
  const outcome = await signInWithPassword({ email, password, ip: getClientIp(context), request });
  switch (outcome.kind) {
    case "signedIn":
      return redirect(outcome.redirectTo, { headers: outcome.sessionCookieHeaders });
    case "invalid":
      return data<ActionData>({ intent: "signIn", error: messages.incorrectCredentials, email }, { status: 400 });
    case "rateLimited":
      return data<ActionData>(
        { intent: "signIn", error: messages.tooManyAttempts, email },
        { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
      );
    case "providerBusy":
      return data<ActionData>({ intent: "signIn", error: messages.identityBusy, email }, { status: 503 });
    case "noType":
      return data<ActionData>({ intent: "signIn", error: messages.contactAdmin, email }, { status: 403 });
    case "newPasswordRequired":
      return data<ActionData>({ intent: "newPassword", step: "form", email: outcome.email, challenge: outcome.challenge });
  }
}

export default function LoginPage() {
  const { sso, expired, forgot } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();

  const firstAccess = actionData?.intent === "newPassword" && actionData.step === "form" ? actionData : null;
  const passwordConfigured = actionData?.intent === "newPassword" && actionData.step === "done";
  const forgotAnswer = actionData?.intent === "forgot" ? actionData : null;
  const forgotOpen = forgot || searchParams.get("forgot") === "1" || forgotAnswer !== null;
  const forgotState: ForgotPasswordState = forgotAnswer?.sent ? { sent: true } : { sent: false, error: forgotAnswer && !forgotAnswer.sent ? forgotAnswer.error : null };

  return (
    <div className="login">
      {firstAccess ? (
        <FirstAccessForm email={firstAccess.email} challenge={firstAccess.challenge} errors={firstAccess.errors} formError={firstAccess.formError} />
      ) : (
        <LoginForm sso={sso} error={actionData?.intent === "signIn" ? actionData.error : null} defaultEmail={actionData?.intent === "signIn" ? actionData.email : undefined} />
      )}
      <ForgotPasswordDialog open={forgotOpen && !firstAccess} state={forgotState} />
      <PageDialog
        open={passwordConfigured}
        dismissible={false}
        title={messages.passwordConfigured}
        footer={
          <Link className="button button--primary" to="/">
            {messages.loginButton}
          </Link>
        }
      />
      <SessionExpiredDialog open={expired && !passwordConfigured} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
