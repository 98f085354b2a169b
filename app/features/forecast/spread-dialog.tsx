import { useFetcher } from "@remix-run/react";
import { useEffect, useId } from "react";
import { ChoiceFieldset } from "~/shared/forms/choice-fieldset";
import { Alert } from "~/shared/ui/alert";
import { Dialog } from "~/shared/ui/dialog";
import { uiTexts } from "~/shared/ui/texts";
import { gridDialogTexts as t } from "./dialog-texts";
import type { CellChange } from "./forecast-grid-rules";
import { SPREAD_MODES, SPREAD_SCOPES, type SpreadPage } from "./spread";
import { spreadBaseTexts, spreadSignTexts } from "./spread-texts";
import type { SpreadMarker } from "./use-forecast-edits";

/** The changes to save whose latest undo step was a spread, marked `spread` (each cell's history: "distribuído"). */
export const markSpreadCells: SpreadMarker = (pending, steps, accounts, months) => {
  const seen = new Set<string>();
  const spread = new Set<string>();
  for (let i = steps.length - 1; i >= 0; i--)
    for (const { line, month } of steps[i].cells) {
      const key = `${line} ${month}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (steps[i].spread) spread.add(key);
    }
  const lineOf = new Map(accounts.map((a, i) => [a.account, i]));
  return pending.map(
    (c): CellChange => (spread.has(`${lineOf.get(c.account)} ${months.indexOf(c.month)}`) ? { ...c, spread: true } : c),
  );
};

/**
 * "Distribuir total" in the grid: the same form as the page without JavaScript (accounts, total, how, each or shared),
 * whose preview the server computes (the page's loader, read by a fetcher: the same weights and rounding); "Aplicar"
 * hands the preview's cells to the grid as one edit, saved with the others.
 */
export function SpreadDialog({
  url,
  accounts,
  months,
  line,
  onApply,
  onClose,
}: {
  /** The review's "Distribuir total" page. */
  url: string;
  /** The grid's accounts, by line, and its months ("YYYY-MM"), by position. */
  accounts: readonly { account: string }[];
  months: readonly string[];
  /** The active row's line: its account is chosen first. */
  line: number;
  /** The cells (line, month position, value) as one edit, what to say of it, and how a save marks them. */
  onApply: (
    cells: readonly { line: number; month: number; value: number }[],
    notice: string,
    mark: SpreadMarker,
  ) => void;
  onClose: () => void;
}) {
  const id = useId();
  const preview = useFetcher<SpreadPage>();
  const page = preview.state === "idle" ? preview.data : undefined;
  // The stored seasonality profiles to choose from: the page's answer without a total (no spread computed).
  const options = useFetcher<SpreadPage>();
  const loadOptions = options.load;
  useEffect(() => {
    loadOptions(url);
  }, [loadOptions, url]);
  const profiles = page?.profiles ?? options.data?.profiles ?? [];
  const rows = page?.preview?.rows ?? [];
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t.spreadTitle}
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {uiTexts.cancel}
          </button>
          <button type="submit" form={`${id}-form`} className="button button--secondary">
            {t.spreadPreview}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={rows.length === 0}
            onClick={() => {
              const lineOf = new Map(accounts.map((a, i) => [a.account, i]));
              const cells = rows.flatMap((r) => {
                const at = lineOf.get(r.account);
                const month = months.indexOf(r.key);
                return at === undefined || month < 0 ? [] : [{ line: at, month, value: r.value }];
              });
              onApply(cells, t.spreadApplied(cells.length), markSpreadCells);
            }}
          >
            {t.apply}
          </button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        className="spread__form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const query = new URLSearchParams();
          for (const [name, value] of form) if (typeof value === "string") query.append(name, value);
          preview.load(`${url}?${query}`);
        }}
      >
        <ChoiceFieldset
          legend={t.spreadAccounts}
          name="conta"
          choices={accounts.map((a) => a.account)}
          checked={(account) => account === accounts[line]?.account}
          multiple
          className="spread__accounts"
          choiceClassName="spread__choice"
        />
        <div className="field">
          <label htmlFor={`${id}-total`}>{t.spreadTotal}</label>
          <input
            id={`${id}-total`}
            name="total"
            inputMode="decimal"
            autoComplete="off"
            required
            aria-describedby={`${id}-total-hint`}
          />
          <small id={`${id}-total-hint`}>{spreadSignTexts.totalHint}</small>
          <label className="spread__choice">
            <input type="checkbox" name="estorno" value="1" /> {spreadSignTexts.confirm}
          </label>
        </div>
        <ChoiceFieldset
          legend={t.spreadMode}
          name="modo"
          choices={SPREAD_MODES}
          labelOf={(mode) => t.spreadModes[mode]}
          checked={(mode) => mode === "igual"}
          choiceClassName="spread__choice"
        />
        <div className="field">
          <label htmlFor={`${id}-profile`}>{spreadBaseTexts.profileLabel}</label>
          <select id={`${id}-profile`} name="perfil" aria-describedby={`${id}-profile-hint`}>
            {profiles.length === 0 ? <option value="">{spreadBaseTexts.profileNone}</option> : null}
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          <small id={`${id}-profile-hint`}>{spreadBaseTexts.profileHint}</small>
        </div>
        <div className="field">
          <label htmlFor={`${id}-weights`}>{t.spreadWeights}</label>
          <input id={`${id}-weights`} name="pesos" autoComplete="off" />
        </div>
        <ChoiceFieldset
          legend={t.spreadScope}
          name="alcance"
          choices={SPREAD_SCOPES}
          labelOf={(scope) => t.spreadScopes[scope]}
          checked={(scope) => scope === "cada"}
          choiceClassName="spread__choice"
        />
      </form>
      {page?.error ? <Alert tone="error">{page.error}</Alert> : null}
      {page?.preview?.note ? <Alert tone="warning">{page.preview.note}</Alert> : null}
      {rows.length > 0 ? (
        <table className="forecast-history">
          <caption>{t.spreadPreviewTitle}</caption>
          <thead>
            <tr>
              <th scope="col">{t.spreadAccount}</th>
              <th scope="col">{t.spreadMonth}</th>
              <th scope="col">{t.spreadCurrent}</th>
              <th scope="col">{t.spreadNew}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.account}\u0000${r.key}`}>
                <td>{r.account}</td>
                <td>{r.label}</td>
                <td className="forecast-history__number">{r.current}</td>
                <td className="forecast-history__number">{r.next}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Dialog>
  );
}
