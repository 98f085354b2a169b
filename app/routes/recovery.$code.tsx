import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { assertSameOrigin } from "~/auth.server";
import { NewPasswordFields, type FieldErrors } from "~/components/access/first-access-form";
import { PageDialog } from "~/components/access/page-dialog";
import "~/components/access/access.css";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";
import { confirmPasswordReset } from "~/services/accounts.server";

// same-origin: no Referer at all to other sites (the address holds a code or a token), while same-origin posts keep
// their Origin header. "no-referrer" would make Chromium send `Origin: null`, which the host's CSRF check refuses.
export const meta: MetaFunction = () => [{ title: messages.recoveryTitle }, { name: "referrer", content: "same-origin" }];

/** `/recovery/{code}`: password reset by code (spec 000 §2). Public; the code from the e-mail link is prefilled. */
export async function loader({ params }: LoaderFunctionArgs) {
  // Only a plausible code is echoed back into the form.
  const code = /^[A-Za-z0-9-]{1,64}$/.test(params.code ?? "") ? (params.code as string) : "";
  return data({ code }, { headers: { "Cache-Control": "no-store" } });
}

type ActionData = { done: true } | { done: false; errors?: FieldErrors; notice?: string; email: string; code: string };

const text = (max: number) => z.string().max(max).optional().default("");
const recoverySchema = z.object({
  email: text(320).transform((s) => s.trim()),
  code: text(64).transform((s) => s.trim()),
  password: text(1024),
  confirmPassword: text(1024),
});

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await request.formData().catch(() => null);
  const parsed = recoverySchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data<ActionData>({ done: false, notice: messages.invalidForm, email: "", code: "" }, { status: 400 });
  const { email, code, password, confirmPassword } = parsed.data;

  // Portuguese messages for the identity fields; the password rules come from the shared policy below.
  const errors: FieldErrors = {};
  if (!email) errors.email = [messages.emailRequired];
  else if (!z.string().email().safeParse(email).success) errors.email = [messages.invalidEmail];
  if (!code) errors.code = [messages.codeRequired];

  const outcome = await confirmPasswordReset({ email, code, password, confirmPassword });
  if (outcome.kind === "ok" && Object.keys(errors).length === 0) return data<ActionData>({ done: true });
  if (outcome.kind === "invalidInput") {
    for (const key of ["password", "confirmPassword"]) if (outcome.errors[key]) errors[key] = outcome.errors[key];
    if (outcome.errors.email && !errors.email) errors.email = [messages.invalidEmail];
    if (outcome.errors.code && !errors.code) errors.code = [messages.codeRequired];
  }
  // A provider failure (wrong or expired code, …): its own message, in an info notice (spec 000 §8).
  const notice = outcome.kind === "error" ? outcome.message : outcome.kind === "challengeExpired" ? messages.codeRequired : undefined;
  return data<ActionData>({ done: false, errors, notice, email, code }, { status: 400 });
}

export default function RecoveryPage() {
  const { code } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failed = actionData && !actionData.done ? actionData : null;
  const errors = failed?.errors ?? {};
  return (
    <div className="login">
      <div className="card login__card">
        <h1 className="login__title">{messages.recoveryTitle}</h1>
        {failed?.notice ? <Alert tone="info">{failed.notice}</Alert> : null}
        <Form method="post" noValidate>
          <div className="field">
            <label htmlFor="recovery-email">{messages.emailLabel}</label>
            <input
              id="recovery-email"
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              defaultValue={failed?.email}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? "recovery-email-error" : undefined}
            />
            {errors.email ? (
              <span id="recovery-email-error" className="field__error">
                {errors.email.join(" ")}
              </span>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="recovery-code">{messages.codeLabel}</label>
            <input
              id="recovery-code"
              name="code"
              type="text"
              autoComplete="one-time-code"
              inputMode="numeric"
              defaultValue={failed?.code || code}
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={errors.code ? "recovery-code-error" : undefined}
            />
            {errors.code ? (
              <span id="recovery-code-error" className="field__error">
                {errors.code.join(" ")}
              </span>
            ) : null}
          </div>
          <NewPasswordFields errors={errors} idPrefix="recovery" />
          <button type="submit" className="button button--primary button--block" disabled={navigation.state === "submitting"}>
            {messages.resetPassword}
          </button>
        </Form>
      </div>
      <PageDialog
        open={actionData?.done === true}
        dismissible={false}
        title={messages.recoveryTitle}
        description={messages.passwordAccepted}
        footer={
          <Link className="button button--primary" to="/">
            {messages.loginButton}
          </Link>
        }
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
