import { Link } from "@remix-run/react";
import { forecastTexts } from "./texts";
import "./breadcrumb.css";

/** "Filtering / …" (spec 001 §2: the breadcrumb Filtering returns to the filter route). */
export function Breadcrumb({ filterHref, current }: { filterHref: string | null; current?: string }) {
  return (
    <nav className="forecast-breadcrumb" aria-label={forecastTexts.breadcrumbLabel}>
      <ol>
        <li>
          {filterHref && current ? (
            <Link to={filterHref}>{forecastTexts.filtering}</Link>
          ) : (
            <span aria-current="page">{forecastTexts.filtering}</span>
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
