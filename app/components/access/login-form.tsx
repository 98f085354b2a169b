import { Form, Link, useNavigation } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";

export type LoginFormProps = {
  /** The message shown above the fields (required fields, wrong credentials, rate limit, CONTATE SEU ADMIN). */
  error?: string | null;
  defaultEmail?: string;
  sso: { label: string; href: string } | null;
};

/** The e-mail + password form of `/`; posts to the index route's action (intent=signIn). */
export function LoginForm({ error, defaultEmail, sso }: LoginFormProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "signIn";
  return (
    <div className="card login__card">
      <h1 className="login__title">{messages.loginTitle}</h1>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {/* noValidate: the server answers "Login e senha Obrigatórios!" for empty fields, as the spec says. */}
      <Form method="post" action="/?index" noValidate>
        <input type="hidden" name="intent" value="signIn" />
        <div className="field">
          <label htmlFor="login-email">{messages.emailLabel}</label>
          <input
            id="login-email"
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            defaultValue={defaultEmail}
            aria-invalid={error ? true : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">{messages.passwordLabel}</label>
          <input id="login-password" name="password" type="password" autoComplete="current-password" aria-invalid={error ? true : undefined} />
        </div>
        <p className="login__links">
          <Link to="/?forgot=1" preventScrollReset>
            {messages.forgotPasswordLink}
          </Link>
        </p>
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {messages.loginButton}
        </button>
      </Form>
      {sso ? (
        <>
          <p className="login__separator">{messages.or}</p>
          {/* A document navigation: the SSO start redirects to the identity provider. */}
          <a className="button button--secondary button--block" href={sso.href}>
            {sso.label}
          </a>
        </>
      ) : null}
    </div>
  );
}
