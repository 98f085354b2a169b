import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ChoiceFieldset } from "~/shared/forms/choice-fieldset";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { DEFAULT_SCIM_TOKEN_LIFE, DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, SCIM_TOKEN_LIVES } from "./lifetimes";
import { tokenTexts } from "./texts";
import { CopyText, TokenSecret } from "./token-secret";
import type { TokenRow, TokensActionData, TokensPageData } from "./tokens.server";
import "./tokens.css";

/**
 * /user/tokens: the new-token form (plain post: works without JavaScript; empty again after creating), the secret once
 * after creating (token-secret.tsx: whole, selectable, "Copiar token" with JavaScript), and the server-paged list
 * with "Revogar" per live token. SYSTEM ADMIN switches to everyone's tokens (`?todos=1`, in the URL) and to the SCIM
 * tokens (`?scim=1`): there the set-up help, the absolute SCIM base URL to copy, and a choice of 4 lives.
 */

const SCIM_BASE_URL_ID = "scim-base-url";

function ScimHelp({ baseUrl }: { baseUrl: string }) {
  return (
    <div className="tokens__scim-help">
      <ul>
        {tokenTexts.scimHelp.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="token-secret__name">{tokenTexts.scimBaseUrlLabel}</p>
      <code id={SCIM_BASE_URL_ID} className="token-secret__value">
        {baseUrl}
      </code>
      <CopyText
        text={baseUrl}
        targetId={SCIM_BASE_URL_ID}
        label={tokenTexts.copyScimBaseUrl}
        failed={tokenTexts.copyScimBaseUrlFailed}
      />
      <p>
        <a href="/api/docs#scim">{tokenTexts.scimGuide}</a>
      </p>
    </div>
  );
}

const { columns: headers } = tokenTexts;

function columnsFor(all: boolean): ColumnDef<TokenRow, unknown>[] {
  const columns: ColumnDef<TokenRow, unknown>[] = [
    { id: "name", header: headers.name, accessorFn: (r) => `${r.name} (…${r.hint})`, meta: { rowHeader: true } },
    { id: "scope", header: headers.scope, accessorFn: (r) => tokenTexts.scopes[r.scope] ?? r.scope },
    { id: "createdAt", header: headers.createdAt, accessorKey: "createdAt" },
    { id: "lastUsedAt", header: headers.lastUsedAt, accessorKey: "lastUsedAt" },
    { id: "expiresAt", header: headers.expiresAt, accessorKey: "expiresAt" },
    { id: "state", header: headers.state, accessorFn: (r) => tokenTexts.states[r.state] },
    {
      id: "actions",
      header: headers.actions,
      cell: ({ row }) =>
        row.original.state === "live" ? (
          <Form method="post" className="token-revoke">
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="id" value={row.original.id} />
            <button
              type="submit"
              className="button button--secondary button--small"
              aria-label={tokenTexts.revokeLabel(row.original.name)}
            >
              {tokenTexts.revoke}
            </button>
          </Form>
        ) : null,
    },
  ];
  if (all) columns.splice(1, 0, { id: "owner", header: headers.owner, accessorKey: "owner" });
  return columns;
}

export function TokensScreen() {
  const page = useLoaderData<TokensPageData>();
  const result = useActionData<TokensActionData>();
  const busy = useNavigation().state === "submitting";
  const title = page.scim ? tokenTexts.scimTitle : page.all ? tokenTexts.allTitle : tokenTexts.title;
  const fieldError = (name: string) => (result && "fields" in result ? result.fields?.[name] : undefined);
  const created = result && "ok" in result && result.ok === "created" ? result : null;
  return (
    <section aria-labelledby="tokens-title" className="tokens">
      <h1 id="tokens-title">{title}</h1>
      <p>{page.scim ? tokenTexts.scimIntro : tokenTexts.intro}</p>
      {page.scim ? <ScimHelp baseUrl={page.scimBaseUrl} /> : null}
      {page.canSeeAll ? (
        <ul className="tokens__views">
          {page.all || page.scim ? (
            <li>
              <Link to="/user/tokens">{tokenTexts.showMine}</Link>
            </li>
          ) : null}
          {page.all ? null : (
            <li>
              <Link to="/user/tokens?todos=1">{tokenTexts.showAll}</Link>
            </li>
          )}
          {page.scim ? null : (
            <li>
              <Link to="/user/tokens?scim=1">{tokenTexts.showScim}</Link>
            </li>
          )}
        </ul>
      ) : null}
      {!page.enabled ? <Alert tone="error">{tokenTexts.disabled}</Alert> : null}
      {result && "error" in result ? <Alert tone="error">{result.error}</Alert> : null}
      {result && "ok" in result && result.ok === "revoked" ? <Alert tone="success">{result.message}</Alert> : null}
      {created ? (
        <TokenSecret
          key={`secret-${created.id}`}
          name={created.name}
          secret={created.secret}
          expiresAt={created.expiresAt}
        />
      ) : null}
      {page.enabled ? (
        // A new key after each creation: with JavaScript the form starts empty again, as the page after a plain POST.
        <Form method="post" className="token-form" key={`form-${created?.id ?? "new"}`}>
          <h2>{tokenTexts.createTitle}</h2>
          <input type="hidden" name="intent" value="create" />
          {page.scim ? <input type="hidden" name="kind" value="scim" /> : null}
          <div className="field">
            <label htmlFor="token-name">{tokenTexts.nameLabel}</label>
            <input
              id="token-name"
              name="name"
              maxLength={80}
              required
              aria-describedby="token-name-hint"
              aria-invalid={fieldError("name") ? true : undefined}
            />
            <small id="token-name-hint">{fieldError("name") ?? tokenTexts.nameHint}</small>
          </div>
          {page.scim ? (
            <ChoiceFieldset
              legend={tokenTexts.scimLifeLabel}
              name="days"
              choices={SCIM_TOKEN_LIVES}
              labelOf={(life) => tokenTexts.scimLives[life]}
              checked={(life) => life === DEFAULT_SCIM_TOKEN_LIFE}
              choiceClassName="token-form__choice"
              hint={{ id: "token-days-hint", text: fieldError("days") ?? tokenTexts.scimLifeHint }}
            />
          ) : (
            <div className="field">
              <label htmlFor="token-days">{tokenTexts.daysLabel}</label>
              <input
                id="token-days"
                name="days"
                type="number"
                min={1}
                max={MAX_TOKEN_DAYS}
                defaultValue={DEFAULT_TOKEN_DAYS}
                aria-describedby="token-days-hint"
                aria-invalid={fieldError("days") ? true : undefined}
              />
              <small id="token-days-hint">{fieldError("days") ?? tokenTexts.daysHint}</small>
            </div>
          )}
          {page.scim ? null : (
            <ChoiceFieldset
              legend={tokenTexts.scopeLabel}
              name="scope"
              choices={["read", "write"] as const}
              labelOf={(scope) => tokenTexts.scopes[scope]}
              checked={(scope) => scope === "read"}
              choiceClassName="token-form__choice"
            />
          )}
          <button type="submit" className="button" disabled={busy}>
            {tokenTexts.create}
          </button>
        </Form>
      ) : null}
      <DataTable
        columns={columnsFor(page.all)}
        rows={page.rows}
        getRowId={(r) => r.id}
        emptyText={tokenTexts.empty}
        caption={title}
        rowCount={page.total}
        page={page.page}
        pageSize={20}
      />
    </section>
  );
}
