import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { isTier, TIER_LABELS } from "~/access";
import { assertSameOrigin, requireAccess } from "~/auth.server";
import { PageDialog } from "~/components/access/page-dialog";
import { TierChoices } from "~/components/access/tier-choices";
import { accessTexts } from "~/components/access/texts";
import "~/components/access/access.css";
import "~/components/ui/data-table.css";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Alert } from "~/components/ui/alert";
import { messages } from "~/messages";
import { listUsersForPermissionGrid, setUserTier } from "~/services/accounts.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: messages.userPermissionHeader }];

const PAGE = "/user/permission";

/**
 * `/user/permission` (SYSTEM ADMIN, USER PERMISS): one row per user, four exclusive tiers (spec 000 §2, §6).
 * Choosing a tier is a GET (`?user=…&tier=…`) that opens the confirmation dialog; Confirmar POSTs, the
 * list reloads through a redirect, and the toast says "Permissão atribuida com sucesso.".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAccess(request);
  const users = await listUsersForPermissionGrid();
  const rows = users.map((u) => ({ email: u.user, name: u.name, tier: isTier(u.type) ? u.type : null }));
  const url = new URL(request.url);
  const user = url.searchParams.get("user");
  const tier = url.searchParams.get("tier");
  const row = user ? rows.find((r) => r.email === user) : undefined;
  const pending = row && isTier(tier) ? { email: row.email, tier } : null;
  return data({ rows, pending }, { headers: { "Cache-Control": "no-store" } });
}

type ActionData = { error: string };

const setTierSchema = z.object({ intent: z.literal("setTier"), user: z.string().trim().min(1).max(320), tier: z.string().max(40) });

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const admin = await requireAccess(request);
  const form = await request.formData().catch(() => null);
  const parsed = setTierSchema.safeParse({ intent: form?.get("intent"), user: form?.get("user") ?? "", tier: form?.get("tier") ?? "" });
  if (!parsed.success) return data<ActionData>({ error: accessTexts.invalidForm }, { status: 400 });
  const outcome = await setUserTier(parsed.data.user, parsed.data.tier, admin.email);
  switch (outcome.kind) {
    case "saved":
      return redirectWithToast(PAGE, { type: "success", description: messages.permissionAssigned });
    case "invalidTier":
      return data<ActionData>({ error: accessTexts.invalidTier }, { status: 400 });
    case "unknownUser":
      return data<ActionData>({ error: accessTexts.userNotFound }, { status: 400 });
    case "protectedUser":
      return data<ActionData>({ error: accessTexts.userProtected }, { status: 400 });
  }
}

export default function UserPermissionPage() {
  const { rows, pending } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const close = () => navigate(PAGE, { preventScrollReset: true });

  return (
    <section className="access-page" aria-labelledby="user-permission-title">
      <h1 id="user-permission-title" className="access-page__title">
        {messages.userPermissionHeader}
      </h1>
      {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
      <div className="data-table">
        <div className="data-table__scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{accessTexts.columnUser}</th>
                <th scope="col">{accessTexts.columnName}</th>
                <th scope="col">{accessTexts.columnPermission}</th>
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
                  <tr key={row.email} data-user={row.email}>
                    <td>{row.email}</td>
                    <td>{row.name}</td>
                    <td>
                      <TierChoices action={PAGE} user={row.email} current={row.tier} />
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>

      <PageDialog
        open={pending !== null}
        onClose={close}
        title={accessTexts.permissionConfirmTitle}
        description={pending ? accessTexts.permissionConfirmPrompt(pending.email, TIER_LABELS[pending.tier]) : undefined}
      >
        <Form method="post" action={PAGE}>
          <input type="hidden" name="intent" value="setTier" />
          <input type="hidden" name="user" value={pending?.email ?? ""} />
          <input type="hidden" name="tier" value={pending?.tier ?? ""} />
          <div className="dialog__footer">
            <Link className="button button--secondary" to={PAGE} preventScrollReset>
              {messages.cancel}
            </Link>
            <button type="submit" className="button button--primary" disabled={navigation.state === "submitting"}>
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
