import { Form, Link } from "@remix-run/react";
import { useId, useState } from "react";
import { PageDialog } from "~/shared/forms/page-dialog";
import { hrTexts } from "./texts";

/**
 * The comment dialog (spec 001 §4, §5): opened from a row (the row's id in the URL, so it also works without
 * JavaScript), at most `max` characters with a live counter, Cancel closes, Save posts and the grid reloads.
 */
export function CommentDialog({
  row,
  max,
  action,
  closeHref,
  onClose,
  error,
  busy,
  saveId,
}: {
  row: { id: string; nome: string; month: string; comentario: string };
  max: number;
  /** Where the form posts (the grid's URL, the dialog's parameter kept so an error shows in the dialog). */
  action: string;
  closeHref: string;
  onClose: () => void;
  error: string | null;
  busy: boolean;
  /** The page's one-time save id (a comment sent again after it was saved is refused). */
  saveId: string;
}) {
  const [text, setText] = useState(row.comentario);
  const id = useId();
  // Counted as the server counts: one character per line break (browsers post "\r\n").
  const used = text.replace(/\r\n?/g, "\n").length;
  return (
    <PageDialog
      open
      onClose={onClose}
      title={hrTexts.commentTitle}
      description={hrTexts.commentFor(row.nome, row.month)}
    >
      <Form method="post" action={action} className="hr-comment" preventScrollReset>
        <input type="hidden" name="intent" value="comment" />
        <input type="hidden" name="id" value={row.id} />
        <input type="hidden" name="saveId" value={saveId} />
        <div className="field">
          <label htmlFor={`${id}-text`}>{hrTexts.commentLabel}</label>
          <textarea
            id={`${id}-text`}
            name="comentario"
            rows={5}
            maxLength={max}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            aria-describedby={`${id}-counter${error ? ` ${id}-error` : ""}`}
            aria-invalid={error ? true : undefined}
            // biome-ignore lint/a11y/noAutofocus: the dialog opens to type the comment
            autoFocus
          />
          <p
            id={`${id}-counter`}
            className={used > max ? "hr-comment__counter hr-comment__counter--over" : "hr-comment__counter"}
            aria-live="polite"
          >
            {hrTexts.commentCounter(used, max)}
          </p>
          {error ? (
            <p id={`${id}-error`} className="hr-comment__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="dialog__footer">
          <Link className="button button--secondary" to={closeHref} preventScrollReset replace>
            {hrTexts.cancel}
          </Link>
          <button type="submit" className="button button--primary" disabled={busy || used > max}>
            {hrTexts.saveComment}
          </button>
        </div>
      </Form>
    </PageDialog>
  );
}
