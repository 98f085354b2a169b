import type { FieldMetadata } from "@conform-to/react";
import { Alert } from "~/shared/ui/alert";

/** A field's messages, under it; the input points here through conform's `aria-describedby` (its errorId). */
export function FieldError({
  field,
}: {
  field: Pick<FieldMetadata<unknown, Record<string, unknown>, string[]>, "errorId" | "errors">;
}) {
  if (!field.errors?.length) return null;
  return (
    <span id={field.errorId} className="field__error">
      {field.errors.join(" ")}
    </span>
  );
}

/** The form-level messages (server outcomes such as "Usuário já cadastrado."), as the alert the form describes itself by. */
export function FormErrors({
  id,
  errors,
  title,
  tone = "error",
}: {
  id: string;
  errors: string[] | undefined;
  title?: string;
  tone?: "error" | "info";
}) {
  if (!errors?.length) return null;
  return (
    <div id={id}>
      <Alert tone={tone} title={title}>
        {errors.join(" ")}
      </Alert>
    </div>
  );
}
