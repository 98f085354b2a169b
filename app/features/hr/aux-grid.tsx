import { Link } from "@remix-run/react";
import { type CSSProperties, memo, useMemo } from "react";
import type { HrAuxRow } from "~/models/hr.server";
import { ThreadLink, type ThreadState } from "~/platform/comments/thread-link";
import { monthLabel } from "~/shared/months";
import { figureInputName } from "./edits";
import { checkFigure, formatFigure, HR_FIGURE_FIELDS, type HrFigureField } from "./figures";
import { hrTexts } from "./texts";

/**
 * The "Auxiliar Padrão" grid (spec 001 §2, §3): one row per person and month, the five figures as pt-BR text
 * inputs (editors) or disabled ones (readers), the comment with its edit link. The name comes first and stays in view
 * (sticky) while the figures scroll sideways; the rows are memoised so typing in one cell re-renders one row.
 */

/** A row as the loader sends it (the CPF already masked). */
export type GridRow = HrAuxRow;

/** Typed texts by row id and field (only cells the user touched). */
export type GridEdits = Record<string, Partial<Record<HrFigureField, string>>>;

type ColumnId = "filial_nome" | "mes_apur" | "nome" | "cpf" | HrFigureField | "comentario" | "conversa";

/** The name first: it stays in view while the figures scroll sideways (1366 px screens, phones). */
const COLUMN_IDS: ColumnId[] = [
  "nome",
  "filial_nome",
  "mes_apur",
  "cpf",
  ...HR_FIGURE_FIELDS,
  "comentario",
  "conversa",
];

/** The rows' comment threads (their count and state, by row id) and each row's thread page. */
export type RowThreads = { marks: Readonly<Record<string, ThreadState>>; href: (id: string) => string };

/** The pinned name column sticks at the left edge (its header above the other sticky headers). */
function pinnedStyle(id: ColumnId, header = false): CSSProperties | undefined {
  return id === "nome" ? { position: "sticky", left: 0, zIndex: header ? 3 : 1 } : undefined;
}

/** The state of one figure cell: what it shows, whether it differs from the stored value, and why it is invalid. */
export function figureCell(
  row: GridRow,
  field: HrFigureField,
  typed: string | undefined,
): { text: string; value: number | null; dirty: boolean; error: string | null } {
  if (typed === undefined)
    return { text: formatFigure(field, row[field]), value: row[field], dirty: false, error: null };
  const checked = checkFigure(field, typed);
  if (!checked.ok) return { text: typed, value: null, dirty: true, error: checked.error };
  return { text: typed, value: checked.value, dirty: checked.value !== row[field], error: null };
}

type RowProps = {
  row: GridRow;
  edits: GridEdits[string] | undefined;
  serverErrors: Record<string, string> | undefined;
  canEdit: boolean;
  commentHref: (id: string) => string;
  onEdit: (id: string, field: HrFigureField, text: string) => void;
  thread: ThreadState | undefined;
  threadHref: (id: string) => string;
};

const GridRowView = memo(function GridRowView({
  row: r,
  edits,
  serverErrors,
  canEdit,
  commentHref,
  onEdit,
  thread,
  threadHref,
}: RowProps) {
  const month = monthLabel(r.mes_apur);
  return (
    <tr data-row-id={r.id} id={`r-${r.id}`}>
      {COLUMN_IDS.map((id) => {
        const style = pinnedStyle(id);
        if (id === "nome") {
          return (
            <th key={id} scope="row" className="hr-grid__name" style={style}>
              {r.nome}
            </th>
          );
        }
        if ((HR_FIGURE_FIELDS as readonly string[]).includes(id)) {
          const field = id as HrFigureField;
          const name = figureInputName(field, r.id);
          const state = figureCell(r, field, edits?.[field]);
          const error = state.error ?? (edits?.[field] === undefined ? serverErrors?.[name] : undefined) ?? null;
          const label = hrTexts.fieldOf(hrTexts.columns[field], r.nome, month);
          return (
            <td key={id} className="hr-grid__figure" data-field={field}>
              {canEdit ? (
                <input
                  type="text"
                  inputMode="decimal"
                  name={name}
                  value={state.text}
                  aria-label={label}
                  aria-invalid={error ? true : undefined}
                  title={error ?? undefined}
                  className={state.dirty ? "hr-grid__input hr-grid__input--dirty" : "hr-grid__input"}
                  autoComplete="off"
                  maxLength={32}
                  onChange={(event) => onEdit(r.id, field, event.currentTarget.value)}
                />
              ) : (
                <input type="text" value={state.text} aria-label={label} className="hr-grid__input" disabled readOnly />
              )}
              {error ? <span className="hr-grid__error">{error}</span> : null}
            </td>
          );
        }
        if (id === "comentario") {
          return (
            <td key={id} className="hr-grid__comment">
              <span className="hr-grid__comment-text" title={r.comentario || undefined}>
                {r.comentario}
              </span>
              {canEdit ? (
                <Link
                  className="button button--secondary button--small"
                  to={commentHref(r.id)}
                  preventScrollReset
                  aria-label={hrTexts.editCommentOf(r.nome, month)}
                >
                  {hrTexts.editComment}
                </Link>
              ) : null}
            </td>
          );
        }
        if (id === "conversa") {
          return (
            <td key={id} className="hr-grid__thread">
              <ThreadLink
                to={threadHref(r.id)}
                state={thread}
                label={hrTexts.threadOf(r.nome, month, thread?.comments ?? 0)}
              />
            </td>
          );
        }
        const text = id === "mes_apur" ? month : String(r[id as "filial_nome" | "cpf"]);
        return (
          <td key={id} className={id === "cpf" ? "hr-grid__cpf" : undefined}>
            {text}
          </td>
        );
      })}
    </tr>
  );
});

export function AuxGrid({
  rows,
  caption,
  canEdit,
  edits,
  serverErrors,
  commentHref,
  onEdit,
  threads,
}: {
  rows: GridRow[];
  caption: string;
  canEdit: boolean;
  edits: GridEdits;
  /** The action's messages by input name (without JavaScript the whole grid is posted back). */
  serverErrors: Record<string, string>;
  commentHref: (id: string) => string;
  onEdit: (id: string, field: HrFigureField, text: string) => void;
  threads: RowThreads;
}) {
  // Server errors per row, so a row's props change only when its own messages do.
  const errorsByRow = useMemo(() => {
    const byRow: Record<string, Record<string, string>> = {};
    for (const [name, message] of Object.entries(serverErrors)) {
      const id = name.slice(name.indexOf(".") + 1);
      (byRow[id] ??= {})[name] = message;
    }
    return byRow;
  }, [serverErrors]);

  return (
    <div className="hr-grid scroll-area" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {COLUMN_IDS.map((id) => (
              <th key={id} scope="col" style={pinnedStyle(id, true)} data-column={id}>
                {hrTexts.columns[id]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <GridRowView
              key={row.id}
              row={row}
              edits={edits[row.id]}
              serverErrors={errorsByRow[row.id]}
              canEdit={canEdit}
              commentHref={commentHref}
              onEdit={onEdit}
              thread={threads.marks[row.id]}
              threadHref={threads.href}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
