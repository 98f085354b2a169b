/** A form's messages by field name; "" holds the form-level ones (conform's `submission.reply()` shape). */
export type FormErrors = Record<string, string[]>;
/** The posted fields, as the rule functions read them. */
export type Payload = Record<string, unknown>;
