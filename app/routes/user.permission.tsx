// Screen: Permissions: /user/permission (the permission type of each user).

import type { SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { ASSIGNABLE_TIERS, isTier, TIER_LABELS, type Tier } from "~/access";
import { formErrorsOf } from "~/features/access/form-rules";
import { setTierSchema } from "~/features/access/form-schemas";
import { TierChoices } from "~/features/access/tier-choices";
import {
  AccessPageHeader,
  DialogActions,
  UserSearchForm,
  UserTable,
  useDialogUrls,
} from "~/features/access/user-admin";
import {
  listedUserOf,
  noStoreHeaders,
  parseUserListPaging,
  userListData,
  userListUrl,
} from "~/features/access/user-list.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { PageDialog } from "~/shared/forms/page-dialog";
import { formErrorReply, parseSubmission, readForm } from "~/shared/forms/submission.server";
import type { ColumnDef } from "~/shared/ui/data-table";
import "~/features/access/access.css";
import { listUsersForPermissionGrid, setUserTier } from "~/features/access/accounts.server";
import { messages } from "~/messages";
import { FormErrors } from "~/shared/forms/form-fields";
import { redirectWithToast } from "~/shared/toast.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: messages.userPermissionHeader }];

const PAGE = "/user/permission";
const DIALOG_PARAMS = ["user", "tier"] as const;

type PermissionRow = { id: string; email: string; name: string; tier: Tier | null };

/**
 * `/user/permission` (SYSTEM ADMIN, USER PERMISS): one row per user, one server page at a time, four
 * exclusive tiers (spec 000 §2, §6), narrowed by an e-mail search held in the URL (`?email=…`). Choosing a tier is a GET (`?user=…&tier=…`, the page kept) that opens
 * the confirmation dialog; Confirmar POSTs, the same page of the list reloads through a redirect, and the
 * toast says "Permissão atribuida com sucesso.".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/user.permission", request);
  const url = new URL(request.url);
  const query = parseUserListPaging(url);
  const list = await listUsersForPermissionGrid(query);
  const rows: PermissionRow[] = list.rows.map((u) => ({
    id: u.id,
    email: u.user,
    name: u.name,
    tier: isTier(u.type) ? u.type : null,
  }));
  const tier = url.searchParams.get("tier");
  const email = isTier(tier) ? await listedUserOf(url.searchParams.get("user"), rows, ASSIGNABLE_TIERS) : null;
  const pending = email && isTier(tier) ? { email, tier } : null;
  return data(
    { ...userListData(list, rows, query), pending },
    { status: query.searchError ? 400 : 200, headers: noStoreHeaders },
  );
}

type ActionData = { result: SubmissionResult<string[]> };

/** The confirmation's hidden fields, read like every access form; the service refuses unknown tiers and users. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRouteAccess("routes/user.permission", request);
  const form = await readForm(request);
  const submission = form ? parseSubmission(form, setTierSchema) : null;
  if (submission?.status !== "success")
    return data<ActionData>({ result: formErrorReply(messages.invalidForm) }, { status: 400 });
  const refuse = (message: string) =>
    data<ActionData>({ result: submission.reply({ formErrors: [message] }) }, { status: 400 });
  const outcome = await setUserTier(submission.value.user, submission.value.tier, admin.email, admin);
  switch (outcome.kind) {
    case "saved":
      return redirectWithToast(userListUrl(PAGE, request), {
        type: "success",
        description: messages.permissionAssigned,
      });
    case "invalidTier":
      return refuse(messages.invalidTier);
    case "unknownUser":
      return refuse(messages.userNotFound);
    case "protectedUser":
      return refuse(messages.userProtected);
  }
}

export default function UserPermissionPage() {
  const { pending, ...list } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const dialogs = useDialogUrls(PAGE, DIALOG_PARAMS);
  const errors = formErrorsOf(actionData?.result);

  const { keptParams } = dialogs;
  const columns = useMemo<ColumnDef<PermissionRow, unknown>[]>(
    () => [
      { id: "user", header: messages.columnUser, accessorKey: "email" },
      { id: "name", header: messages.columnName, accessorKey: "name" },
      {
        id: "permission",
        header: messages.columnPermission,
        cell: ({ row }) => (
          <TierChoices action={PAGE} user={row.original.email} current={row.original.tier} keep={keptParams} />
        ),
      },
    ],
    [keptParams],
  );

  return (
    <section className="access-page" aria-labelledby="user-permission-title">
      <AccessPageHeader titleId="user-permission-title" title={messages.userPermissionHeader} />
      <FormErrors id="user-permission-errors" errors={errors} />
      <UserSearchForm listPath={PAGE} list={list} />
      <UserTable list={list} columns={columns} caption={messages.userPermissionHeader} />

      <PageDialog
        open={pending !== null}
        onClose={dialogs.close}
        title={messages.permissionConfirmTitle}
        description={pending ? messages.permissionConfirmPrompt(pending.email, TIER_LABELS[pending.tier]) : undefined}
      >
        <Form method="post" action={dialogs.closeHref}>
          <input type="hidden" name="intent" value="setTier" />
          <input type="hidden" name="user" value={pending?.email ?? ""} />
          <input type="hidden" name="tier" value={pending?.tier ?? ""} />
          <DialogActions cancelHref={dialogs.closeHref} busy={navigation.state === "submitting"} />
        </Form>
      </PageDialog>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
