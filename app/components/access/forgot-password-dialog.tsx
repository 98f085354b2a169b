import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";
import { PageDialog } from "./page-dialog";

export type ForgotPasswordState = { sent: true } | { sent: false; error?: string | null };

/**
 * The forgot-password dialog of `/`. Its open state is the URL (`/?forgot=1`): the link works without
 * JavaScript (the server renders the dialog's form in the page), and back/forward open and close it.
 */
export function ForgotPasswordDialog({ open, state }: { open: boolean; state: ForgotPasswordState }) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "forgot";
  const close = () => navigate("/", { preventScrollReset: true });
  return (
    <PageDialog
      open={open}
      onClose={close}
      title={messages.forgotPasswordTitle}
      description={state.sent ? undefined : messages.forgotPasswordPrompt}
    >
      {state.sent ? (
        <>
          <Alert tone="success">{messages.recoveryEmailSent}</Alert>
          <div className="dialog__footer">
            <Link className="button button--primary" to="/">
              {messages.loginButton}
            </Link>
          </div>
        </>
      ) : (
        <Form method="post" action="/?index&forgot=1">
          <input type="hidden" name="intent" value="forgot" />
          {state.error ? <Alert tone="error">{state.error}</Alert> : null}
          <div className="field">
            <label htmlFor="forgot-email">{messages.registrationEmailLabel}</label>
            <input id="forgot-email" name="email" type="email" required autoComplete="email" inputMode="email" />
          </div>
          <div className="dialog__footer">
            <Link className="button button--secondary" to="/" preventScrollReset>
              {messages.cancel}
            </Link>
            <button type="submit" className="button button--primary" disabled={submitting}>
              {messages.send}
            </button>
          </div>
        </Form>
      )}
    </PageDialog>
  );
}
