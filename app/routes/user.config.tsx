// Screen: User administration: /user/config (create and delete users of the four tiers).

import type { SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { ASSIGNABLE_TIERS } from "~/access";
import { createUserErrors, formErrorsOf } from "~/features/access/form-rules";
import { createUserSchema, deleteUserSchema } from "~/features/access/form-schemas";
import {
  AccessPageHeader,
  DialogActions,
  UserSearchForm,
  UserTable,
  useDialogUrls,
} from "~/features/access/user-admin";
import {
  createdUserUrl,
  listedUserOf,
  noStoreHeaders,
  parseUserListPaging,
  userListData,
  userListUrl,
} from "~/features/access/user-list.server";
import { NEW_USER_PARAM } from "~/features/access/user-list-params";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { FieldError, FormErrors } from "~/shared/forms/form-fields";
import { PageDialog } from "~/shared/forms/page-dialog";
import { useRuleForm } from "~/shared/forms/rule-form";
import { formErrorReply, parseSubmission, readForm } from "~/shared/forms/submission.server";
import type { ColumnDef } from "~/shared/ui/data-table";
import "~/features/access/access.css";
import {
  countTierUsers,
  createUser,
  deleteUser,
  listConfiguredUsers,
  pageOfTierUser,
  UserExistsError,
} from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { formatDate } from "~/shared/dates";
import { redirectWithToast } from "~/shared/toast.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: messages.userConfigHeader }];

const PAGE = "/user/config";
const DIALOG_PARAMS = ["create", "delete", NEW_USER_PARAM] as const;

type UserConfigRow = { id: string; email: string; createdAt: string };

/**
 * `/user/config` (USER ADMIN): the users of the four tiers, one server page at a time, create and delete
 * (spec 000 §2, §4, §6). Page, page size and the e-mail search are URL state (`?page=…&pageSize=…&email=…`), and
 * so are the dialogs (`?create=1`, `?delete={email}`), so everything works without JavaScript and with
 * back/forward; a deletion redirects back to the same page and search with a toast, a creation to the page on which
 * the new user stands, its row highlighted (`?novo={email}`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/user.config", request);
  const url = new URL(request.url);
  const query = parseUserListPaging(url);
  const [list, created] = await Promise.all([listConfiguredUsers(query), query.email ? countTierUsers() : null]);
  const rows: UserConfigRow[] = list.rows.map((u) => ({ id: u.id, email: u.user, createdAt: formatDate(u.createdAt) }));
  const deleteEmail = await listedUserOf(url.searchParams.get("delete"), rows, ASSIGNABLE_TIERS);
  const newUser = rows.find((r) => r.email === url.searchParams.get(NEW_USER_PARAM)) ?? null;
  return data(
    {
      ...userListData(list, rows, query),
      created: created ?? list.total,
      create: url.searchParams.get("create") === "1",
      deleteEmail,
      newUserId: newUser?.id ?? null,
      newUserEmail: newUser?.email ?? null,
    },
    { status: query.searchError ? 400 : 200, headers: noStoreHeaders },
  );
}

type ActionData =
  | { intent: "create"; result: SubmissionResult<string[]> }
  | { intent: "delete"; result: SubmissionResult<string[]>; email: string }
  | { intent: "unknown"; result: SubmissionResult<string[]> };

/**
 * Two forms, told apart by their hidden `intent`: create (a typed e-mail, validated in the browser too) and
 * delete (a hidden e-mail). Duplicates and provider failures are server-only outcomes, sent back as form-level
 * messages of the submission.
 */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRouteAccess("routes/user.config", request);
  const form = await readForm(request);
  const intent = form?.get("intent");
  const backToList = userListUrl(PAGE, request);

  if (form && intent === "create") {
    const submission = parseSubmission(form, createUserSchema);
    if (!submission) return data<ActionData>({ intent, result: formErrorReply(messages.invalidForm) }, { status: 400 });
    if (submission.status !== "success")
      return data<ActionData>({ intent, result: submission.reply() }, { status: 400 });
    const refuse = (message: string, status: number) =>
      data<ActionData>({ intent, result: submission.reply({ formErrors: [message] }) }, { status });
    let created: string;
    try {
      const outcome = await createUser(submission.value.email, admin.email, admin);
      if (outcome.kind === "invalidInput") {
        return data<ActionData>(
          { intent, result: submission.reply({ fieldErrors: { email: [messages.invalidEmail] } }) },
          { status: 400 },
        );
      }
      // Nothing was created (mail not sent, provider busy): say so, so the admin can simply try again.
      if (outcome.kind === "failed") return refuse(outcome.message, 503);
      created = outcome.email;
    } catch (error) {
      if (error instanceof UserExistsError) return refuse(messages.userExists, 400);
      throw error;
    }
    // The list opens on the page where the new user stands, its row highlighted, whatever page or search was shown.
    const page = await pageOfTierUser(created, parseUserListPaging(new URL(request.url)).pageSize);
    return redirectWithToast(createdUserUrl(PAGE, request, created, page), {
      type: "success",
      description: messages.saved,
    });
  }

  if (form && intent === "delete") {
    const submission = parseSubmission(form, deleteUserSchema);
    if (submission?.status !== "success") {
      return data<ActionData>({ intent, result: formErrorReply(messages.userNotFound), email: "" }, { status: 400 });
    }
    const { email } = submission.value;
    const outcome = await deleteUser(email, admin);
    // The model answers the last page when this deletion emptied the one shown.
    if (outcome.kind === "deleted")
      return redirectWithToast(backToList, { type: "success", description: messages.userDeleted });
    const error = outcome.kind === "notFound" ? messages.userNotFound : messages.userProtected;
    return data<ActionData>({ intent, result: submission.reply({ formErrors: [error] }), email }, { status: 400 });
  }

  return data<ActionData>({ intent: "unknown", result: formErrorReply(messages.invalidForm) }, { status: 400 });
}

/**
 * The create dialog's form. The browser answers an empty or malformed e-mail with the action's own rule before
 * posting (without a form library: this page stays light); without JavaScript the server answers the same
 * messages. A server-only refusal (duplicate, provider) is an "OPS!" alert.
 */
function CreateUserForm({
  action,
  cancelHref,
  busy,
  result,
}: {
  action: string;
  cancelHref: string;
  busy: boolean;
  result: SubmissionResult<string[]> | null;
}) {
  const { errors, formProps, initialValue } = useRuleForm(createUserErrors, result);
  const emailErrors = errors.email ?? [];
  const refilled = typeof initialValue.email === "string" ? initialValue.email : undefined;
  return (
    <Form
      method="post"
      action={action}
      id="create"
      aria-describedby={errors[""]?.length ? "create-error" : undefined}
      {...formProps}
    >
      <input type="hidden" name="intent" value="create" />
      <FormErrors id="create-error" errors={errors[""]} title={messages.ops} />
      <div className="field">
        <label htmlFor="create-email">{messages.emailLabel}</label>
        <input
          id="create-email"
          name="email"
          type="email"
          required
          autoComplete="off"
          defaultValue={refilled}
          key={refilled}
          aria-invalid={emailErrors.length > 0 || undefined}
          aria-describedby={emailErrors.length > 0 ? "create-email-error" : undefined}
        />
        <FieldError field={{ errorId: "create-email-error", errors: emailErrors }} />
      </div>
      <DialogActions cancelHref={cancelHref} busy={busy} />
    </Form>
  );
}

export default function UserConfigPage() {
  const { create, deleteEmail, newUserId, newUserEmail, created, ...list } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const dialogs = useDialogUrls(PAGE, DIALOG_PARAMS);
  const busy = navigation.state === "submitting";

  const createError = actionData?.intent === "create" ? actionData : null;
  const deleteError = actionData?.intent === "delete" ? actionData : null;
  // After a refused POST the URL still carries the dialog's parameter; keep the dialog open with the error.
  const createOpen = create || createError !== null;
  const deleteTarget = deleteEmail ?? (deleteError?.email || null);
  const deleteErrors = formErrorsOf(deleteError?.result);

  const { hrefWith } = dialogs;
  const columns = useMemo<ColumnDef<UserConfigRow, unknown>[]>(
    () => [
      {
        id: "email",
        header: messages.columnEmail,
        accessorKey: "email",
        cell: ({ row }) =>
          row.original.email === newUserEmail ? (
            <>
              {row.original.email}
              <span className="badge--new">{messages.newUserBadge}</span>
            </>
          ) : (
            row.original.email
          ),
      },
      { id: "createdAt", header: messages.columnCreatedAt, accessorKey: "createdAt" },
      {
        id: "delete",
        header: messages.columnDelete,
        cell: ({ row }) => (
          <Link
            className="button button--danger"
            to={hrefWith({ delete: row.original.email })}
            preventScrollReset
            aria-label={messages.deleteUserAction(row.original.email)}
          >
            {messages.deleteAction}
          </Link>
        ),
      },
    ],
    [hrefWith, newUserEmail],
  );

  return (
    <section className="access-page" aria-labelledby="user-config-title">
      <AccessPageHeader
        titleId="user-config-title"
        breadcrumb={messages.userConfigHeader}
        title={messages.usersCreated(created)}
        actions={
          <Link className="button button--primary" to={hrefWith({ create: "1" })} preventScrollReset>
            {messages.createUser}
          </Link>
        }
      />
      {actionData?.intent === "unknown" ? (
        <FormErrors id="user-config-errors" errors={formErrorsOf(actionData.result)} />
      ) : null}
      <UserSearchForm listPath={PAGE} list={list} />
      <UserTable list={list} columns={columns} caption={messages.usersCreated(created)} highlightedRowId={newUserId} />

      <PageDialog
        open={createOpen}
        onClose={dialogs.close}
        title={messages.createUserTitle}
        description={messages.createUserPrompt}
      >
        {/* A new form (empty, no old messages) each time the dialog is opened. */}
        <CreateUserForm
          key={location.key}
          action={hrefWith({ create: "1" })}
          cancelHref={dialogs.closeHref}
          busy={busy}
          result={createError?.result ?? null}
        />
      </PageDialog>

      <PageDialog
        open={deleteTarget !== null}
        onClose={dialogs.close}
        title={messages.deleteUserTitle}
        description={deleteTarget ? messages.deleteUserPrompt(deleteTarget) : undefined}
      >
        <Form method="post" action={hrefWith({ delete: deleteTarget ?? "" })}>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="email" value={deleteTarget ?? ""} />
          <FormErrors id="user-delete-errors" errors={deleteErrors} />
          <DialogActions cancelHref={dialogs.closeHref} busy={busy} danger />
        </Form>
      </PageDialog>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
