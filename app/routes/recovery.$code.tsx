// Screen: Password recovery: /recovery/{code}.

import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { NewPasswordFields } from "~/features/access/first-access-form";
import { recoveryErrors, SECRET_FIELDS } from "~/features/access/form-rules";
import { recoverySchema } from "~/features/access/form-schemas";
import { assertSameOrigin } from "~/platform/auth/auth.server";
import { FieldError, FormErrors } from "~/shared/forms/form-fields";
import { PageDialog } from "~/shared/forms/page-dialog";
import { formErrorReply, parseSubmission, readForm } from "~/shared/forms/submission.server";
import { validateWith } from "~/shared/forms/validate-with";
import "~/features/access/access.css";
import { confirmPasswordReset } from "~/features/access/accounts.server";
import { getClientIp } from "~/features/access/login-limit.server";
import { accessTexts } from "~/features/access/texts";
import { formTexts } from "~/shared/forms/texts";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

// same-origin: no Referer at all to other sites (the address holds a code or a token), while same-origin posts keep
// their Origin header. "no-referrer" would make Chromium send `Origin: null`, which the host's CSRF check refuses.
export const meta: MetaFunction = () => [
  { title: accessTexts.recoveryTitle },
  { name: "referrer", content: "same-origin" },
];

/** `/recovery/{code}`: password reset by code (spec 000 §2). Public; the code from the e-mail link is prefilled. */
export async function loader({ params }: LoaderFunctionArgs) {
  // Only a plausible code is echoed back into the form.
  const code = /^[A-Za-z0-9-]{1,64}$/.test(params.code ?? "") ? (params.code as string) : "";
  return data({ code }, { headers: { "Cache-Control": "no-store" } });
}

type ActionData = { done: true } | { done: false; result: SubmissionResult<string[]> };

/**
 * Everything is checked by the schema the browser also validates with (e-mail, code, the password policy and the
 * confirmation); the identity provider's refusal (wrong or expired code, …) comes back as a form-level notice.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const form = await readForm(request);
  const submission = form ? parseSubmission(form, recoverySchema) : null;
  if (!submission)
    return data<ActionData>({ done: false, result: formErrorReply(formTexts.invalidForm) }, { status: 400 });
  if (submission.status !== "success")
    return data<ActionData>({ done: false, result: submission.reply({ hideFields: SECRET_FIELDS }) }, { status: 400 });

  const { email, code, password, confirmPassword } = submission.value;
  const outcome = await confirmPasswordReset({ email, code, password, confirmPassword, ip: getClientIp(context) });
  if (outcome.kind === "ok") return data<ActionData>({ done: true });
  if (outcome.kind === "rateLimited") {
    const result = submission.reply({ formErrors: [accessTexts.tooManyRecoveryAttempts], hideFields: SECRET_FIELDS });
    const headers = { "Retry-After": String(outcome.retryAfterSeconds) };
    return data<ActionData>({ done: false, result }, { status: 429, headers });
  }
  let result: SubmissionResult<string[]>;
  if (outcome.kind === "invalidInput") {
    // The service's stricter rules (the address length): its texts are zod's, so the field gets ours.
    const fieldErrors: Record<string, string[]> = {};
    if (outcome.errors.email) fieldErrors.email = [accessTexts.invalidEmail];
    if (outcome.errors.code) fieldErrors.code = [accessTexts.codeRequired];
    for (const key of SECRET_FIELDS) if (outcome.errors[key]) fieldErrors[key] = outcome.errors[key];
    result = submission.reply({ fieldErrors, hideFields: SECRET_FIELDS });
  } else {
    // A provider failure (wrong or expired code, …): its own message, in an info notice (spec 000 §8).
    const notice = outcome.kind === "error" ? outcome.message : accessTexts.codeRequired;
    result = submission.reply({ formErrors: [notice], hideFields: SECRET_FIELDS });
  }
  return data<ActionData>({ done: false, result }, { status: 400 });
}

export default function RecoveryPage() {
  const { code } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<z.input<typeof recoverySchema>>({
    id: "recovery",
    lastResult: actionData && !actionData.done ? actionData.result : null,
    // The code from the e-mail's link; after a refused post, the values posted (but never the passwords).
    defaultValue: { code },
    onValidate: validateWith(recoveryErrors),
  });
  return (
    <div className="login">
      <div className="card login__card">
        <h1 className="login__title">{accessTexts.recoveryTitle}</h1>
        <FormErrors id={form.errorId} errors={form.errors} tone="info" />
        <Form method="post" {...getFormProps(form)}>
          <div className="field">
            <label htmlFor={fields.email.id}>{accessTexts.emailLabel}</label>
            <input
              {...getInputProps(fields.email, { type: "email" })}
              key={fields.email.key}
              autoComplete="username"
              inputMode="email"
            />
            <FieldError field={fields.email} />
          </div>
          <div className="field">
            <label htmlFor={fields.code.id}>{accessTexts.codeLabel}</label>
            <input
              {...getInputProps(fields.code, { type: "text" })}
              key={fields.code.key}
              autoComplete="one-time-code"
              inputMode="text"
            />
            <FieldError field={fields.code} />
          </div>
          <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={navigation.state === "submitting"}
          >
            {accessTexts.resetPassword}
          </button>
        </Form>
      </div>
      <PageDialog
        open={actionData?.done === true}
        dismissible={false}
        title={accessTexts.recoveryTitle}
        description={accessTexts.passwordAccepted}
        footer={
          <Link className="button button--primary" to="/">
            {accessTexts.loginButton}
          </Link>
        }
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
