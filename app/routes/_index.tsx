// Screen: Sign-in: / (login form, first access, forgot password, SSO button).

import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { FirstAccessForm } from "~/features/access/first-access-form";
import { ForgotPasswordDialog } from "~/features/access/forgot-password-dialog";
import { FIRST_ACCESS_HIDDEN_FIELDS, SECRET_FIELDS } from "~/features/access/form-rules";
import { firstAccessSchema, forgotPasswordSchema, signInSchema } from "~/features/access/form-schemas";
import { LoginForm } from "~/features/access/login-form";
import { SessionExpiredDialog } from "~/features/access/session-expired-dialog";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { landingFor } from "~/navigation";
import { assertSameOrigin, getOptionalUser, SESSION_EXPIRED_PARAM } from "~/platform/auth/auth.server";
import { isLocalPath, returnPathFor, runningRouteManifest } from "~/platform/auth/return-to.server";
import { RETURN_TO_MAX, RETURN_TO_PARAM } from "~/platform/auth/return-to-param";
import { PageDialog } from "~/shared/forms/page-dialog";
import { formErrorReply, parseSubmission, readForm } from "~/shared/forms/submission.server";
import "~/features/access/access.css";
import { accessContext } from "~/config.server";
import {
  completeFirstAccess,
  listTenantDashboards,
  requestPasswordReset,
  signInWithPassword,
} from "~/features/access/accounts.server";
import { getClientIp } from "~/features/access/login-limit.server";
import { accessTexts } from "~/features/access/texts";
import { getSsoEntry } from "~/services/sso/sso.server";
import { formTexts } from "~/shared/forms/texts";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: accessTexts.loginTitle }];

/** The sign-in limit's Retry-After reaches the browser with the 429 (document posts too). */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

/**
 * `/`, the login screen (spec 000 §2, §4, §5, §8): e-mail + password, first access (new password required),
 * the forgot-password dialog (`?forgot=1`), the session-expired modal (`?expired=1`) and the SSO button.
 * A signed-in visitor goes to the landing page of their type.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const url = new URL(request.url);
  const returnTo = url.searchParams.get(RETURN_TO_PARAM);
  if (user) {
    // Signed in already (e.g. the modal's Login opened in a second tab): the page asked for, else the landing.
    const back = returnPathFor(returnTo, user.type, await runningRouteManifest(), accessContext());
    if (back) throw redirect(back);
    const dashboards = user.type === "SYSTEM ADMIN" || user.type === "USER GOLD" ? await listTenantDashboards() : [];
    throw redirect(landingFor(user.type, dashboards, accessContext()));
  }
  return data(
    {
      sso: getSsoEntry(),
      expired: url.searchParams.get(SESSION_EXPIRED_PARAM) === "1",
      forgot: url.searchParams.get("forgot") === "1",
      // Carried by the login form; decided only after sign-in, against the user's type.
      returnTo: returnTo && returnTo.length <= RETURN_TO_MAX && isLocalPath(returnTo) ? returnTo : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

type ActionData =
  | { intent: "signIn"; result: SubmissionResult<string[]> }
  | { intent: "newPassword"; step: "form"; email: string; challenge: string; result?: SubmissionResult<string[]> }
  | { intent: "newPassword"; step: "done" }
  | { intent: "forgot"; sent: true }
  | { intent: "forgot"; sent: false; result: SubmissionResult<string[]> };

type Replying = { reply(options: { formErrors: string[]; hideFields: string[] }): SubmissionResult<string[]> };

/**
 * The login form's answer: one form-level message and the e-mail refilled from `submission` (never a password
 * nor the challenge); without a submission (the form could not be read), the message alone.
 */
function signInRefusal(message: string, status: number, submission?: Replying, headers?: HeadersInit) {
  const result = submission
    ? submission.reply({ formErrors: [message], hideFields: [...SECRET_FIELDS, "challenge"] })
    : formErrorReply(message);
  return data<ActionData>({ intent: "signIn", result }, { status, headers });
}

/**
 * Three forms post here, told apart by their hidden `intent`: sign-in, first access and forgot password. Each is
 * read with conform + zod (the schemas the browser validates with); server-only outcomes (wrong credentials,
 * rate limit, the identity provider's answers) come back through `submission.reply(...)`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  if (!form) return signInRefusal(formTexts.invalidForm, 400);
  const intent = form.get("intent");

  if (intent === "forgot") {
    const submission = parseSubmission(form, forgotPasswordSchema);
    if (!submission)
      return data<ActionData>({ intent, sent: false, result: formErrorReply(formTexts.invalidForm) }, { status: 400 });
    if (submission.status !== "success")
      return data<ActionData>({ intent, sent: false, result: submission.reply() }, { status: 400 });
    const outcome = await requestPasswordReset({ email: submission.value.email });
    if (outcome.kind === "sent") return data<ActionData>({ intent, sent: true });
    // "invalidInput": the service's stricter address rules (length); "error": the identity provider's own message.
    const result =
      outcome.kind === "error"
        ? submission.reply({ formErrors: [outcome.message] })
        : submission.reply({ fieldErrors: { email: [accessTexts.invalidEmail] } });
    return data<ActionData>({ intent, sent: false, result }, { status: 400 });
  }

  if (intent === "newPassword") {
    const submission = parseSubmission(form, firstAccessSchema);
    if (!submission) return signInRefusal(formTexts.invalidForm, 400);
    if (submission.status !== "success") {
      // The e-mail and the challenge are hidden fields: wrong ones were not typed, so start over at the login.
      if (FIRST_ACCESS_HIDDEN_FIELDS.some((name) => submission.error?.[name]))
        return signInRefusal(formTexts.invalidForm, 400);
      const { email, challenge } = hiddenFieldsOf(submission.payload);
      return data<ActionData>(
        { intent, step: "form", email, challenge, result: submission.reply({ hideFields: SECRET_FIELDS }) },
        { status: 400 },
      );
    }
    const { password, confirmPassword } = submission.value;
    const email = submission.value.email ?? "";
    const challenge = submission.value.challenge ?? "";
    const outcome = await completeFirstAccess({ email, challenge, password, confirmPassword });
    switch (outcome.kind) {
      case "ok":
        return data<ActionData>({ intent, step: "done" });
      case "invalidInput":
        return data<ActionData>(
          {
            intent,
            step: "form",
            email,
            challenge,
            result: submission.reply({ fieldErrors: outcome.errors, hideFields: SECRET_FIELDS }),
          },
          { status: 400 },
        );
      case "challengeExpired":
        return signInRefusal(accessTexts.firstAccessExpired, 400, submission);
      case "providerBusy":
      case "error":
        return data<ActionData>(
          {
            intent,
            step: "form",
            email,
            challenge,
            result: submission.reply({
              formErrors: [outcome.kind === "error" ? outcome.message : accessTexts.identityBusy],
              hideFields: SECRET_FIELDS,
            }),
          },
          { status: 400 },
        );
    }
  }

  const submission = parseSubmission(form, signInSchema);
  if (!submission) return signInRefusal(formTexts.invalidForm, 400);
  if (submission.status !== "success") {
    // The schema's own messages are form-level; a field-level one only comes from a tampered form (a file…).
    return signInRefusal(submission.error?.[""]?.[0] ?? formTexts.invalidForm, 400, submission);
  }
  const { email, password } = submission.value;
  const outcome = await signInWithPassword({ email, password, ip: getClientIp(context), request });
  switch (outcome.kind) {
    case "signedIn":
      return redirect((await returnAfterSignIn(submission.value.redirectTo, email)) ?? outcome.redirectTo, {
        headers: outcome.sessionCookieHeaders,
      });
    case "invalid":
      return signInRefusal(accessTexts.incorrectCredentials, 400, submission);
    case "rateLimited":
      return signInRefusal(accessTexts.tooManyAttempts, 429, submission, {
        "Retry-After": String(outcome.retryAfterSeconds),
      });
    case "providerBusy":
      return signInRefusal(accessTexts.identityBusy, 503, submission);
    case "noType":
      return signInRefusal(accessTexts.contactAdmin, 403, submission);
    case "newPasswordRequired":
      return data<ActionData>({
        intent: "newPassword",
        step: "form",
        email: outcome.email,
        challenge: outcome.challenge,
      });
  }
}

/** The page the visitor asked for before signing in, when the signed-in user's type may open it (return-to.server.ts). */
async function returnAfterSignIn(returnTo: string | undefined, email: string): Promise<string | null> {
  if (!returnTo) return null;
  const record = await findPermissionRecord(email);
  return returnPathFor(returnTo, record?.type, await runningRouteManifest(), accessContext());
}

/** The first-access form's hidden values as posted (already known to be short strings or absent). */
function hiddenFieldsOf(payload: Record<string, unknown>): { email: string; challenge: string } {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return { email: text(payload.email), challenge: text(payload.challenge) };
}

export default function LoginPage() {
  const { sso, expired, forgot, returnTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();

  const firstAccess = actionData?.intent === "newPassword" && actionData.step === "form" ? actionData : null;
  const passwordConfigured = actionData?.intent === "newPassword" && actionData.step === "done";
  const forgotAnswer = actionData?.intent === "forgot" ? actionData : null;
  const forgotOpen = forgot || searchParams.get("forgot") === "1" || forgotAnswer !== null;

  return (
    <div className="login">
      {firstAccess ? (
        <FirstAccessForm email={firstAccess.email} challenge={firstAccess.challenge} result={firstAccess.result} />
      ) : (
        <LoginForm sso={sso} returnTo={returnTo} result={actionData?.intent === "signIn" ? actionData.result : null} />
      )}
      <ForgotPasswordDialog
        open={forgotOpen && !firstAccess}
        sent={forgotAnswer?.sent === true}
        result={forgotAnswer && !forgotAnswer.sent ? forgotAnswer.result : null}
      />
      <PageDialog
        open={passwordConfigured}
        dismissible={false}
        title={accessTexts.passwordConfigured}
        footer={
          <Link className="button button--primary" to="/">
            {accessTexts.loginButton}
          </Link>
        }
      />
      <SessionExpiredDialog open={expired && !passwordConfigured} returnTo={returnTo} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
