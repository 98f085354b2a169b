import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { assertSameOrigin, requireAccess } from "~/auth.server";
import { PageDialog } from "~/components/access/page-dialog";
import { accessTexts } from "~/components/access/texts";
import "~/components/access/access.css";
import "~/components/ui/data-table.css";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";
import { createUser, deleteUser, listConfiguredUsers, UserExistsError } from "~/services/accounts.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: messages.userConfigHeader }];

const PAGE = "/user/config";

/** DD/MM/yyyy in UTC (the portal's dates are shown in UTC), or " - " when the record has no date. */
function formatCreatedAt(value: Date | null | undefined): string {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return " - ";
  const dd = String(value.getUTCDate()).padStart(2, "0");
  const mm = String(value.getUTCMonth() + 1).padStart(2, "0");
  return `${dd}/${mm}/${value.getUTCFullYear()}`;
}

/**
 * `/user/config` (USER ADMIN): the users of the four tiers, create and delete (spec 000 §2, §4, §6).
 * The dialogs are URL state (`?create=1`, `?delete={email}`), so they work without JavaScript and with
 * back/forward; every change redirects back here (the list reloads) with a toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const users = await listConfiguredUsers();
  const rows = users.map((u) => ({ email: u.user, createdAt: formatCreatedAt(u.createdAt) }));
  const url = new URL(request.url);
  const deleteParam = url.searchParams.get("delete");
  const deleteEmail = deleteParam && rows.some((r) => r.email === deleteParam) ? deleteParam : null;
  return data({ rows, create: url.searchParams.get("create") === "1", deleteEmail }, { headers: { "Cache-Control": "no-store" } });
}

type ActionData =
  | { intent: "create"; error: { title?: string; text: string }; email: string }
  | { intent: "delete"; error: string; email: string }
  | { intent: "unknown"; error: string };

const createSchema = z.object({ email: z.string().trim().max(320) });
const deleteSchema = z.object({ email: z.string().trim().min(1).max(320) });

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const admin = await requireAccess(request);
  const form = await request.formData().catch(() => null);
  const intent = form?.get("intent");

  if (intent === "create") {
    const parsed = createSchema.safeParse({ email: form?.get("email") ?? "" });
    const email = parsed.success ? parsed.data.email : "";
    if (!email) return data<ActionData>({ intent, error: { text: accessTexts.emailRequired }, email }, { status: 400 });
    try {
      const outcome = await createUser(email, admin.email);
      if (outcome.kind === "invalidInput") return data<ActionData>({ intent, error: { text: accessTexts.invalidEmail }, email }, { status: 400 });
    } catch (error) {
      if (error instanceof UserExistsError) {
        return data<ActionData>({ intent, error: { title: messages.ops, text: messages.userExists }, email }, { status: 400 });
      }
      throw error;
    }
    return redirectWithToast(PAGE, { type: "success", description: messages.saved });
  }

  if (intent === "delete") {
    const parsed = deleteSchema.safeParse({ email: form?.get("email") ?? "" });
    if (!parsed.success) return data<ActionData>({ intent, error: accessTexts.userNotFound, email: "" }, { status: 400 });
    const outcome = await deleteUser(parsed.data.email);
    if (outcome.kind === "deleted") return redirectWithToast(PAGE, { type: "success", description: messages.userDeleted });
    const error = outcome.kind === "notFound" ? accessTexts.userNotFound : accessTexts.userProtected;
    return data<ActionData>({ intent, error, email: parsed.data.email }, { status: 400 });
  }

  return data<ActionData>({ intent: "unknown", error: accessTexts.invalidForm }, { status: 400 });
}

export default function UserConfigPage() {
  const { rows, create, deleteEmail } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const location = useLocation();
  const submitting = navigation.state === "submitting";
  const close = () => navigate(PAGE, { preventScrollReset: true });

  const createError = actionData?.intent === "create" ? actionData : null;
  const deleteError = actionData?.intent === "delete" ? actionData : null;
  // After a refused POST the URL still carries the dialog's parameter; keep the dialog open with the error.
  const createOpen = create || createError !== null;
  const deleteTarget = deleteEmail ?? (deleteError?.email || null);

  return (
    <section className="access-page" aria-labelledby="user-config-title">
      <p className="access-page__breadcrumb">{messages.userConfigHeader}</p>
      <div className="access-page__toolbar">
        <h1 id="user-config-title" className="access-page__title">
          {messages.usersCreated(rows.length)}
        </h1>
        <Link className="button button--primary" to={`${PAGE}?create=1`} preventScrollReset>
          {accessTexts.createUser}
        </Link>
      </div>
      {actionData?.intent === "unknown" ? <Alert tone="error">{actionData.error}</Alert> : null}
      <div className="data-table">
        <div className="data-table__scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{accessTexts.columnEmail}</th>
                <th scope="col">{accessTexts.columnCreatedAt}</th>
                <th scope="col">{accessTexts.columnDelete}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={3} className="data-table__empty">
                    {accessTexts.noUsers}
                  </td>
                </tr>
              ) : (
                rows.map((row) => (
                  <tr key={row.email}>
                    <td>{row.email}</td>
                    <td>{row.createdAt}</td>
                    <td>
                      <Link
                        className="button button--danger"
                        to={`${PAGE}?delete=${encodeURIComponent(row.email)}`}
                        preventScrollReset
                        aria-label={accessTexts.deleteUserAction(row.email)}
                      >
                        {accessTexts.deleteAction}
                      </Link>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>

      <PageDialog open={createOpen} onClose={close} title={accessTexts.createUserTitle} description={accessTexts.createUserPrompt}>
        <Form method="post" action={`${PAGE}?create=1`} key={location.key}>
          <input type="hidden" name="intent" value="create" />
          {createError ? (
            <Alert tone="error" title={createError.error.title}>
              {createError.error.text}
            </Alert>
          ) : null}
          <div className="field">
            <label htmlFor="create-email">{messages.emailLabel}</label>
            <input id="create-email" name="email" type="email" required autoComplete="off" defaultValue={createError?.email} />
          </div>
          <div className="dialog__footer">
            <Link className="button button--secondary" to={PAGE} preventScrollReset>
              {messages.cancel}
            </Link>
            <button type="submit" className="button button--primary" disabled={submitting}>
              {messages.confirm}
            </button>
          </div>
        </Form>
      </PageDialog>

      <PageDialog
        open={deleteTarget !== null}
        onClose={close}
        title={accessTexts.deleteUserTitle}
        description={deleteTarget ? accessTexts.deleteUserPrompt(deleteTarget) : undefined}
      >
        <Form method="post" action={`${PAGE}?delete=${encodeURIComponent(deleteTarget ?? "")}`}>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="email" value={deleteTarget ?? ""} />
          {deleteError ? <Alert tone="error">{deleteError.error}</Alert> : null}
          <div className="dialog__footer">
            <Link className="button button--secondary" to={PAGE} preventScrollReset>
              {messages.cancel}
            </Link>
            <button type="submit" className="button button--danger" disabled={submitting}>
              {messages.confirm}
            </button>
          </div>
        </Form>
      </PageDialog>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
