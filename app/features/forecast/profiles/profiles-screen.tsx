import { Form, Link } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { type ColumnDef, DataTable } from "~/shared/ui/data-table";
import { weightField } from "./profile-form";
import type { ProfileRow, ProfilesPage } from "./profiles.server";
import { MONTH_NAMES, MONTH_SHORT, profileTexts as t } from "./texts";
import "./profiles.css";

/** /ij/forecast_perfis_sazonalidade: the profiles (a table), the removal to confirm, and the form (new or edited). */

function columnsOf(path: string): ColumnDef<ProfileRow, unknown>[] {
  return [
    { id: "name", header: t.name, cell: ({ row }) => row.original.name },
    ...MONTH_SHORT.map(
      (month, i): ColumnDef<ProfileRow, unknown> => ({
        id: `m${i + 1}`,
        header: month,
        cell: ({ row }) => (
          <>
            {row.original.weights[i]}
            <span className="seasonality-profiles__share">{t.share(row.original.shares[i])}</span>
          </>
        ),
      }),
    ),
    { id: "updated", header: t.updated, cell: ({ row }) => row.original.updated },
    {
      id: "actions",
      header: t.actions,
      cell: ({ row }) => (
        <span className="seasonality-profiles__actions">
          <Link to={`${path}?editar=${row.original.id}`} aria-label={t.editOf(row.original.name)}>
            {t.edit}
          </Link>
          <Link to={`${path}?excluir=${row.original.id}`} aria-label={t.removeOf(row.original.name)}>
            {t.remove}
          </Link>
        </span>
      ),
    },
  ];
}

function ProfileForm({ path, form, busy }: { path: string; form: ProfilesPage["form"]; busy: boolean }) {
  const { values, errors, editing } = form;
  const fieldError = (name: string) =>
    errors[name] ? (
      <span id={`profile-${name}-error`} className="field__error">
        {errors[name]}
      </span>
    ) : null;
  const described = (name: string, hint?: string) =>
    [hint, errors[name] ? `profile-${name}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <Form
      method="post"
      action={path}
      className="seasonality-profiles__form card"
      aria-labelledby="profile-form-title"
      // A new form after each saved profile (the key changes with what is edited).
      key={`${values.id}:${values.seen}`}
    >
      <h2 id="profile-form-title">{editing ? t.editTitle(editing) : t.newTitle}</h2>
      {errors[""] ? <Alert tone="error">{errors[""]}</Alert> : null}
      <input type="hidden" name="intent" value="salvar" />
      <input type="hidden" name="id" value={values.id} />
      <input type="hidden" name="atualizado" value={values.seen} />
      <div className="field">
        <label htmlFor="profile-nome">{t.nameLabel}</label>
        <input
          id="profile-nome"
          name="nome"
          defaultValue={values.name}
          required
          maxLength={80}
          autoComplete="off"
          aria-invalid={errors.nome ? true : undefined}
          aria-describedby={described("nome", "profile-nome-hint")}
        />
        <small id="profile-nome-hint">{t.nameHint}</small>
        {fieldError("nome")}
      </div>
      <fieldset className="seasonality-profiles__weights" aria-describedby="profile-weights-hint">
        <legend>{t.weightsLegend}</legend>
        {MONTH_NAMES.map((month, i) => {
          const name = weightField(i + 1);
          return (
            <div className="field" key={name}>
              <label htmlFor={`profile-${name}`}>{month}</label>
              <input
                id={`profile-${name}`}
                name={name}
                inputMode="decimal"
                autoComplete="off"
                required
                defaultValue={values.weights[i]}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={described(name)}
              />
              {fieldError(name)}
            </div>
          );
        })}
      </fieldset>
      <p>
        <small id="profile-weights-hint">{t.weightsHint}</small>
      </p>
      <p className="seasonality-profiles__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {t.save}
        </button>
        {editing ? (
          <Link to={path} className="button button--secondary">
            {t.cancel}
          </Link>
        ) : null}
      </p>
    </Form>
  );
}

export function ProfilesScreen({ path, page, busy }: { path: string; page: ProfilesPage; busy: boolean }) {
  return (
    <section className="seasonality-profiles" aria-labelledby="profiles-title">
      <h1 id="profiles-title">{t.title}</h1>
      <p>{t.intro}</p>
      {page.removing ? (
        <Form method="post" action={path} className="card" aria-label={t.confirmRemoveButton}>
          <p>{t.confirmRemove(page.removing.name)}</p>
          <input type="hidden" name="intent" value="excluir" />
          <input type="hidden" name="id" value={page.removing.id} />
          <p className="seasonality-profiles__actions">
            <button type="submit" className="button button--danger" disabled={busy}>
              {t.confirmRemoveButton}
            </button>
            <Link to={path} className="button button--secondary">
              {t.cancel}
            </Link>
          </p>
        </Form>
      ) : null}
      <DataTable
        columns={columnsOf(path)}
        rows={page.rows}
        getRowId={(r) => r.id}
        paging={false}
        emptyText={t.empty}
        caption={t.listCaption}
        className="forecast-calendar__table"
      />
      {page.full && !page.form.editing ? <Alert tone="info">{page.full}</Alert> : null}
      <ProfileForm path={path} form={page.form} busy={busy} />
    </section>
  );
}
