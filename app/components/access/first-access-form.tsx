import { Form, useNavigation } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";

export type FieldErrors = Record<string, string[] | undefined>;

/** A new password + confirmation pair, with the spec's helper text (first access and reset by code). */
export function NewPasswordFields({ errors, idPrefix }: { errors?: FieldErrors; idPrefix: string }) {
  const passwordErrors = errors?.password ?? [];
  const confirmErrors = errors?.confirmPassword ?? [];
  const helperId = `${idPrefix}-helper`;
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-password`}>{messages.newPasswordLabel}</label>
        <input
          id={`${idPrefix}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          aria-describedby={[helperId, passwordErrors.length ? `${idPrefix}-password-error` : ""].filter(Boolean).join(" ")}
          aria-invalid={passwordErrors.length ? true : undefined}
        />
        <span id={helperId} className="login__helper">
          {messages.passwordHelper}
        </span>
        {passwordErrors.length ? (
          <span id={`${idPrefix}-password-error`} className="field__error">
            {passwordErrors.join(" ")}
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-confirm`}>{messages.confirmPasswordLabel}</label>
        <input
          id={`${idPrefix}-confirm`}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          aria-describedby={confirmErrors.length ? `${idPrefix}-confirm-error` : undefined}
          aria-invalid={confirmErrors.length ? true : undefined}
        />
        {confirmErrors.length ? (
          <span id={`${idPrefix}-confirm-error`} className="field__error">
            {confirmErrors.join(" ")}
          </span>
        ) : null}
      </div>
    </>
  );
}

/**
 * First access (the new-password-required challenge): the second step of `/`. The challenge travels in a
 * hidden field, as Cognito's Session string does; it is only ever handed to whoever just proved the password.
 */
export function FirstAccessForm({
  email,
  challenge,
  errors,
  formError,
}: {
  email: string;
  challenge: string;
  errors?: FieldErrors;
  formError?: string | null;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "newPassword";
  return (
    <div className="card login__card">
      <h1 className="login__title">{messages.firstAccessTitle}</h1>
      <p>{messages.firstAccessPrompt}</p>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <Form method="post" action="/?index" noValidate>
        <input type="hidden" name="intent" value="newPassword" />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="challenge" value={challenge} />
        <NewPasswordFields errors={errors} idPrefix="first-access" />
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {messages.savePassword}
        </button>
      </Form>
    </div>
  );
}
