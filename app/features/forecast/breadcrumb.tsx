import { Link } from "@remix-run/react";
import { gridTexts } from "./grid-texts";
import "./breadcrumb.css";

/** "Filtering / …" (spec 001 §2: the breadcrumb Filtering returns to the filter route). */
export function Breadcrumb({ filterHref, current }: { filterHref: string | null; current?: string }) {
  return (
    <nav className="forecast-breadcrumb" aria-label={gridTexts.breadcrumbLabel}>
      <ol>
        <li>
          {filterHref && current ? (
            <Link to={filterHref}>{gridTexts.filtering}</Link>
          ) : (
            <span aria-current="page">{gridTexts.filtering}</span>
          )}
        </li>
        {current ? (
          <li>
            <span aria-current="page">{current}</span>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}
