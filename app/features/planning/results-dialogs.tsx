import { type Blocker, Form, Link, useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";
import { PageDialog } from "~/shared/forms/page-dialog";
import { Alert } from "~/shared/ui/alert";
import { Dialog, DialogClose } from "~/shared/ui/dialog";
import { uiTexts } from "~/shared/ui/texts";
import { HiddenFields } from "./fields";
import { GroupEditForm } from "./group-edit-form";
import type { ResultsActionData, ResultsView } from "./results.server";
import { planningTexts } from "./texts";
import type { ResultsNavigation } from "./use-results-page";

export function ConflictList({ conflicts }: { conflicts: { id: string; text: string }[] }) {
  if (conflicts.length === 0) return null;
  return (
    <ul className="planning-conflicts">
      {conflicts.map((c) => (
        <li key={c.id}>{c.text}</li>
      ))}
    </ul>
  );
}

function DialogLinkFooter({
  href,
  label,
  primary = false,
}: {
  href: string;
  label: string;
  primary?: boolean;
}): ReactNode {
  return (
    <Link
      className={`button ${primary ? "button--primary" : "button--secondary"}`}
      to={href}
      preventScrollReset
      replace
    >
      {label}
    </Link>
  );
}

/** With JavaScript: the confirmation opens in place and its Confirm submits the form `formId`. */
export function SaveConfirmDialog({
  open,
  onOpenChange,
  text,
  formId,
  saving,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  text: string;
  formId: string;
  saving: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={planningTexts.confirmTitle} description={text}>
      <div className="dialog__footer">
        <DialogClose asChild>
          <button type="button" className="button button--secondary">
            {planningTexts.cancel}
          </button>
        </DialogClose>
        <button
          type="submit"
          form={formId}
          name="confirmed"
          value="1"
          className="button button--primary"
          disabled={saving}
        >
          {planningTexts.confirm}
        </button>
      </div>
    </Dialog>
  );
}

/** Leaving with typed quantities: keep editing or discard them. */
export function DiscardDialog({ blocker }: { blocker: Blocker }) {
  if (blocker.state !== "blocked") return null;
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : blocker.reset())}
      title={planningTexts.discardTitle}
      description={planningTexts.discardPrompt}
    >
      <div className="dialog__footer">
        <button type="button" className="button button--secondary" onClick={() => blocker.reset()}>
          {planningTexts.keepEditing}
        </button>
        <button type="button" className="button button--danger" onClick={() => blocker.proceed()}>
          {planningTexts.discard}
        </button>
      </div>
    </Dialog>
  );
}

function HistoryTable({ entries }: { entries: NonNullable<ResultsView["history"]>["entries"] }) {
  return (
    <div className="planning-history">
      <table>
        <caption className="visually-hidden">{planningTexts.historyTitle}</caption>
        <thead>
          <tr>
            <th scope="col">{planningTexts.historyWhen}</th>
            <th scope="col">{planningTexts.historyWho}</th>
            <th scope="col">{planningTexts.historyMode}</th>
            <th scope="col">{planningTexts.historyChange}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            <tr key={i}>
              <td>{e.at}</td>
              <td>{e.user}</td>
              <td>{e.mode}</td>
              <td>{e.change}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The dialogs that live in the URL or in the action's answer, so they also work without JavaScript: the save's
 * confirmation asked by the server, the group edit, the saved message and a row's history.
 */
export function PageDialogs({
  data,
  actionData,
  nav,
}: {
  data: ResultsView;
  actionData: ResultsActionData | undefined;
  nav: ResultsNavigation;
}) {
  const navigate = useNavigate();
  const close = (to: string) => () => navigate(to, { replace: true, preventScrollReset: true });
  const confirm = actionData?.kind === "confirm" ? actionData : null;
  const { history, saved } = data;
  return (
    <>
      {/* Without JavaScript: the server asks for the confirmation, with the same fields to post again. */}
      <PageDialog
        open={confirm !== null}
        onClose={close(nav.withoutDialogs)}
        title={planningTexts.confirmTitle}
        description={confirm?.text}
      >
        {confirm ? (
          <Form method="post" preventScrollReset>
            <HiddenFields fields={confirm.fields} />
            <input type="hidden" name="confirmed" value="1" />
            <div className="dialog__footer">
              <Link className="button button--secondary" to={nav.withoutDialogs} preventScrollReset>
                {planningTexts.cancel}
              </Link>
              <button type="submit" className="button button--primary" disabled={nav.saving}>
                {planningTexts.confirm}
              </button>
            </div>
          </Form>
        ) : null}
      </PageDialog>

      <PageDialog
        open={data.groupEdit}
        onClose={close(nav.clean)}
        title={planningTexts.groupEditTitle}
        description={planningTexts.groupEditPrompt}
      >
        <GroupEditForm key={nav.locationKey} data={data} cancelHref={nav.clean} keptParams={nav.groupKept} />
      </PageDialog>

      <PageDialog
        open={saved !== null}
        onClose={close(nav.withoutDialogs)}
        title={saved?.title ?? uiTexts.editingSaved}
        description={saved?.details}
        footer={<DialogLinkFooter href={nav.withoutDialogs} label={uiTexts.close} primary />}
      >
        {saved && saved.conflicts.length > 0 ? (
          <Alert tone="warning" title={planningTexts.conflictTitle}>
            {planningTexts.conflictIntro}
            <ConflictList conflicts={saved.conflicts} />
          </Alert>
        ) : null}
      </PageDialog>

      <PageDialog
        open={history !== null}
        onClose={close(nav.withoutDialogs)}
        title={planningTexts.historyTitle}
        description={history ? [history.label, history.current].filter(Boolean).join(" · ") : undefined}
        footer={<DialogLinkFooter href={nav.withoutDialogs} label={uiTexts.close} />}
      >
        {history && history.entries.length > 0 ? (
          <HistoryTable entries={history.entries} />
        ) : history ? (
          <p>{planningTexts.historyEmpty}</p>
        ) : null}
        {history?.threadHref ? (
          <p>
            <Link to={history.threadHref}>{planningTexts.historyThread}</Link>
          </p>
        ) : null}
      </PageDialog>
    </>
  );
}
