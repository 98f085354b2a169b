import { getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { RETURN_TO_PARAM } from "~/platform/auth/return-to-param";
import { FormErrors } from "~/shared/forms/form-fields";
import { validateWith } from "~/shared/forms/validate-with";
import { signInErrors } from "./form-rules";
import type { signInSchema } from "./form-schemas";
import { accessTexts } from "./texts";

export type LoginFormProps = {
  /**
   * The action's reply to the last sign-in: its form-level message (required fields, wrong credentials, rate
   * limit, CONTATE SEU ADMIN) and the e-mail to refill; never the password.
   */
  result?: SubmissionResult<string[]> | null;
  sso: { label: string; href: string } | null;
  /** The page asked for before the sign-in (`?redirectTo=`); the server decides after sign-in whether to go back. */
  returnTo?: string | null;
};

/**
 * The e-mail + password form of `/`; posts to the index route's action (intent=signIn). With JavaScript the
 * same schema answers "Login e senha Obrigatórios!" before posting; without it the server does.
 */
export function LoginForm({ result, sso, returnTo = null }: LoginFormProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "signIn";
  const [form, fields] = useForm<z.input<typeof signInSchema>>({
    id: "login",
    lastResult: result,
    onValidate: validateWith(signInErrors),
  });
  // The spec has one notice for the whole form (000 §5), so both fields point to it.
  const invalid = form.errors?.length ? { "aria-invalid": true, "aria-describedby": form.errorId } : {};
  return (
    <div className="card login__card">
      <h1 className="login__title">{accessTexts.loginTitle}</h1>
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" action="/?index" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="signIn" />
        {returnTo ? <input type="hidden" name={RETURN_TO_PARAM} value={returnTo} /> : null}
        <div className="field">
          <label htmlFor={fields.email.id}>{accessTexts.emailLabel}</label>
          <input
            {...getInputProps(fields.email, { type: "email" })}
            key={fields.email.key}
            autoComplete="username"
            inputMode="email"
            {...invalid}
          />
        </div>
        <div className="field">
          <label htmlFor={fields.password.id}>{accessTexts.passwordLabel}</label>
          <input
            {...getInputProps(fields.password, { type: "password", value: false })}
            key={fields.password.key}
            autoComplete="current-password"
            {...invalid}
          />
        </div>
        <p className="login__links">
          <Link to="/?forgot=1" preventScrollReset>
            {accessTexts.forgotPasswordLink}
          </Link>
        </p>
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {accessTexts.loginButton}
        </button>
      </Form>
      {sso ? (
        <>
          <p className="login__separator">{accessTexts.or}</p>
          {/* A document navigation: the SSO start redirects to the identity provider. */}
          <a className="button button--secondary button--block" href={sso.href}>
            {sso.label}
          </a>
        </>
      ) : null}
    </div>
  );
}
