import { Form } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";

/** A cell of a spread's preview: its month (and account, when the spread covers several), the value now and spread. */
export type SpreadPreviewRow = { key: string; account?: string; label: string; current: string; next: string };

/**
 * The preview of a "Distribuir total" and the form that saves it (the planning grid's and the forecast review's pages):
 * the table of the values now and spread, and the fields that let the save compute the same spread again (`carried`,
 * in order). The texts are the screen's own.
 */
export function SpreadPreviewForm({
  action,
  title,
  note,
  headers,
  rows,
  carried,
  confirm,
}: {
  action: string;
  title: string;
  note: string | null;
  /** The columns: [the account,] the month, the value now, the value spread. */
  headers: readonly string[];
  rows: readonly SpreadPreviewRow[];
  carried: readonly (readonly [name: string, value: string])[];
  confirm: string;
}) {
  return (
    <Form method="post" action={action} className="spread__preview">
      <h2>{title}</h2>
      {note ? <Alert tone="warning">{note}</Alert> : null}
      <table>
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.account ?? ""}\u0000${row.key}`}>
              {row.account === undefined ? null : <td>{row.account}</td>}
              <th scope="row">{row.label}</th>
              <td className="num">{row.current}</td>
              <td className="num">{row.next}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {carried.map(([name, value], i) => (
        <input key={`${name}\u0000${i}`} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button button--primary">
        {confirm}
      </button>
    </Form>
  );
}
