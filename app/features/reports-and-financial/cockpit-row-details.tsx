import { Form, Link } from "@remix-run/react";
import { reportsTexts as t } from "~/messages";
import { COCKPIT_COMMENT_MAX, COCKPIT_FILE_EXTENSIONS } from "~/models/reports.fields";
import { Alert } from "~/shared/ui/alert";
import { RowFiles } from "./cockpit-table";
import { HiddenFields } from "./fields";

/** A cockpit row's details (`row` in the URL): its comment form, its files and the upload of another. */
export function CockpitRowDetails({
  selected,
  unit,
  period,
  error,
  comment,
  onCommentChange,
  closeLink,
}: {
  selected: { key: string; label: string; files: { id: string; name: string }[] };
  unit: string;
  period: string;
  error: string | null;
  comment: string;
  onCommentChange: (text: string) => void;
  closeLink: string;
}) {
  return (
    <section className="row-details" aria-labelledby="row-details-title">
      <h2 id="row-details-title">{t.rowDetailsOf(selected.label)}</h2>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Form method="post" preventScrollReset>
        <HiddenFields fields={{ intent: "comment", unit, period, rowKey: selected.key }} />
        <div className="field">
          <label htmlFor="cockpit-comment">{t.commentLabel}</label>
          <textarea
            id="cockpit-comment"
            name="text"
            maxLength={COCKPIT_COMMENT_MAX}
            value={comment}
            onChange={(e) => onCommentChange(e.target.value)}
          />
          <p className="report-muted" aria-live="polite">
            {t.commentCounter(comment.length, COCKPIT_COMMENT_MAX)}
          </p>
        </div>
        <button type="submit" className="button button--primary">
          {t.saveComment}
        </button>
      </Form>
      <h3>{t.files}</h3>
      {selected.files.length === 0 ? <p className="report-muted">{t.noFiles}</p> : null}
      <RowFiles files={selected.files} unit={unit} period={period} />
      <Form method="post" encType="multipart/form-data" preventScrollReset className="report-filters">
        <HiddenFields fields={{ intent: "upload", unit, period, rowKey: selected.key }} />
        <div className="field">
          <label htmlFor="cockpit-file">{t.attachFile}</label>
          <input
            id="cockpit-file"
            name="file"
            type="file"
            required
            accept={COCKPIT_FILE_EXTENSIONS.map((e) => `.${e}`).join(",")}
          />
        </div>
        <button type="submit" className="button button--secondary">
          {t.upload}
        </button>
      </Form>
      <p>
        <Link to={closeLink} preventScrollReset>
          {t.closeDetails}
        </Link>
      </p>
    </section>
  );
}
