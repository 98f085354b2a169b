import { Form, Link } from "@remix-run/react";
import { messages } from "~/messages";
import { PageDialog } from "~/shared/forms/page-dialog";
import { Dialog } from "~/shared/ui/dialog";
import { changeLine } from "./change-line";
import type { HrConfirmData } from "./grid-page.server";
import type { PendingChange } from "./pending-changes";
import { hrTexts } from "./texts";

/** How many changes the confirmation lists before "…". */
const CONFIRM_LIST_MAX = 20;

function ChangeList({ lines }: { lines: string[] }) {
  const shown = lines.slice(0, CONFIRM_LIST_MAX);
  return (
    <ul className="hr-changes">
      {shown.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
      {lines.length > shown.length ? <li>… +{lines.length - shown.length}</li> : null}
    </ul>
  );
}

/** The confirmation, with JavaScript: the changes typed in the grid. */
export function ConfirmChangesDialog({
  open,
  onOpenChange,
  changes,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  changes: PendingChange[];
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={hrTexts.confirmTitle}
      description={hrTexts.confirmPrompt(changes.length)}
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={() => onOpenChange(false)}>
            {messages.cancel}
          </button>
          <button type="button" className="button button--primary" onClick={onConfirm}>
            {messages.confirm}
          </button>
        </>
      }
    >
      <ChangeList
        lines={changes.map((c) =>
          changeLine({
            nome: c.row.nome,
            mes_apur: c.row.mes_apur,
            field: c.field,
            old: c.row[c.field],
            new: c.value,
          }),
        )}
      />
    </Dialog>
  );
}

/** The confirmation without JavaScript: the server's list of changes, posted again with confirmed=1. */
export function ServerConfirmDialog({
  confirm,
  gridUrl,
  saving,
  onClose,
}: {
  confirm: HrConfirmData;
  gridUrl: string;
  saving: boolean;
  onClose: () => void;
}) {
  return (
    <PageDialog
      open
      onClose={onClose}
      title={hrTexts.confirmTitle}
      description={hrTexts.confirmPrompt(confirm.lines.length)}
    >
      <ChangeList lines={confirm.lines} />
      <Form method="post" action={gridUrl}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="confirmed" value="1" />
        <input type="hidden" name="saveId" value={confirm.saveId} />
        {confirm.fields.map(({ name, text }) => (
          <input key={name} type="hidden" name={name} value={text} />
        ))}
        <div className="dialog__footer">
          <Link className="button button--secondary" to={gridUrl} replace>
            {messages.cancel}
          </Link>
          <button type="submit" className="button button--primary" disabled={saving}>
            {messages.confirm}
          </button>
        </div>
      </Form>
    </PageDialog>
  );
}
