import { type FieldMetadata, getFormProps, getInputProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { FieldError, FormErrors } from "~/shared/forms/form-fields";
import { validateWith } from "~/shared/forms/validate-with";
import { firstAccessErrors } from "./form-rules";
import type { firstAccessSchema } from "./form-schemas";
import { accessTexts } from "./texts";

// The form schema varies (first access, recovery); only these two fields are read.
type PasswordField = FieldMetadata<string | undefined>;

/** A new password + confirmation pair, with the spec's helper text (first access and reset by code). */
export function NewPasswordFields({
  password,
  confirmPassword,
}: {
  password: PasswordField;
  confirmPassword: PasswordField;
}) {
  // The helper text always describes the field; conform adds the error's id when there is one.
  const helperId = password.descriptionId;
  return (
    <>
      <div className="field">
        <label htmlFor={password.id}>{accessTexts.newPasswordLabel}</label>
        <input
          {...getInputProps(password, { type: "password", value: false, ariaDescribedBy: helperId })}
          key={password.key}
          autoComplete="new-password"
        />
        <span id={helperId} className="login__helper">
          {accessTexts.passwordHelper}
        </span>
        <FieldError field={password} />
      </div>
      <div className="field">
        <label htmlFor={confirmPassword.id}>{accessTexts.confirmPasswordLabel}</label>
        <input
          {...getInputProps(confirmPassword, { type: "password", value: false })}
          key={confirmPassword.key}
          autoComplete="new-password"
        />
        <FieldError field={confirmPassword} />
      </div>
    </>
  );
}

/**
 * First access (the new-password-required challenge): the second step of `/`. The challenge travels in a
 * hidden field, as Cognito's Session string does; it is only ever handed to whoever just proved the password.
 * The password policy and "Por favor verifique se as senhas correspondem." are checked in the browser before
 * posting and again by the server; the identity provider's refusals come back as a form-level message.
 */
export function FirstAccessForm({
  email,
  challenge,
  result,
}: {
  email: string;
  challenge: string;
  result?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "newPassword";
  const [form, fields] = useForm<z.input<typeof firstAccessSchema>>({
    id: "first-access",
    lastResult: result,
    onValidate: validateWith(firstAccessErrors),
  });
  return (
    <div className="card login__card">
      <h1 className="login__title">{accessTexts.firstAccessTitle}</h1>
      <p>{accessTexts.firstAccessPrompt}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <Form method="post" action="/?index" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="newPassword" />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="challenge" value={challenge} />
        <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {accessTexts.savePassword}
        </button>
      </Form>
    </div>
  );
}
