import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { FieldError, FormErrors } from "~/shared/forms/form-fields";
import { PageDialog } from "~/shared/forms/page-dialog";
import { validateWith } from "~/shared/forms/validate-with";
import { Alert } from "~/shared/ui/alert";
import { uiTexts } from "~/shared/ui/texts";
import { forgotPasswordErrors } from "./form-rules";
import type { forgotPasswordSchema } from "./form-schemas";
import { accessTexts } from "./texts";

/**
 * The forgot-password dialog of `/`. Its open state is the URL (`/?forgot=1`): the link works without
 * JavaScript (the server renders the dialog's form in the page), and back/forward open and close it.
 * `sent`: the request was taken (the same answer for known and unknown e-mails); `result`: the action's reply
 * to a refused one (the e-mail's own message, or the identity provider's at form level).
 */
export function ForgotPasswordDialog({
  open,
  sent,
  result,
}: {
  open: boolean;
  sent: boolean;
  result?: SubmissionResult<string[]> | null;
}) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "forgot";
  const [form, fields] = useForm<z.input<typeof forgotPasswordSchema>>({
    id: "forgot",
    lastResult: result,
    constraint: { email: { required: true } },
    onValidate: validateWith(forgotPasswordErrors),
  });
  const close = () => navigate("/", { preventScrollReset: true });
  return (
    <PageDialog
      open={open}
      onClose={close}
      title={accessTexts.forgotPasswordTitle}
      description={sent ? undefined : accessTexts.forgotPasswordPrompt}
    >
      {sent ? (
        <>
          <Alert tone="success">{accessTexts.recoveryEmailSent}</Alert>
          <div className="dialog__footer">
            <Link className="button button--primary" to="/">
              {accessTexts.loginButton}
            </Link>
          </div>
        </>
      ) : (
        <Form method="post" action="/?index&forgot=1" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="forgot" />
          <FormErrors id={form.errorId} errors={form.errors} />
          <div className="field">
            <label htmlFor={fields.email.id}>{accessTexts.registrationEmailLabel}</label>
            <input
              {...getInputProps(fields.email, { type: "email" })}
              key={fields.email.key}
              autoComplete="email"
              inputMode="email"
            />
            <FieldError field={fields.email} />
          </div>
          <div className="dialog__footer">
            <Link className="button button--secondary" to="/" preventScrollReset>
              {uiTexts.cancel}
            </Link>
            <button type="submit" className="button button--primary" disabled={submitting}>
              {accessTexts.send}
            </button>
          </div>
        </Form>
      )}
    </PageDialog>
  );
}
