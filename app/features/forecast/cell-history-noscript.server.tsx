import { renderToStaticMarkup } from "react-dom/server";
import type { OpenedHistory } from "./open-cell.server";

/**
 * The history of the cell a link opened the grid at (`?celula=…&historico=1`, an audit entry's "Abrir"), for a
 * browser without JavaScript: with it, the grid's own history dialog shows the same rows. The loader draws it as HTML,
 * which the page puts in a <noscript> (the page's script carries none of it).
 */
export function cellHistoryHtml(history: OpenedHistory): string {
  return renderToStaticMarkup(<CellHistory history={history} />);
}

function CellHistory({ history }: { history: OpenedHistory }) {
  return (
    <section className="forecast-history-static" aria-label={history.title}>
      <h2>{history.title}</h2>
      {history.entries.length === 0 ? (
        <p>{history.empty}</p>
      ) : (
        <table className="forecast-history">
          <thead>
            <tr>
              {history.columns.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {history.entries.map((e, i) => (
              <tr key={i}>
                <td>{e.when}</td>
                <td>{e.who}</td>
                <td className="forecast-history__number">{e.old}</td>
                <td className="forecast-history__number">{e.new}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
