import { Link, useLocation } from "@remix-run/react";
import type { FacetCounts } from "~/models/explorer.server";
import { FACETS, type FacetFilters } from "~/models/explorer-search";
import { explorerTexts } from "./texts";
import { clearFacetsHref, facetHref } from "./urls";

/**
 * The facets of a search (source, category, year) with their counts: links that put the choice in the URL
 * (so they work without JavaScript and with back/forward); a chosen value can be removed.
 */
export function FacetsNav({ facets, filters }: { facets: FacetCounts; filters: FacetFilters }) {
  const { search } = useLocation();
  const chosen = FACETS.filter((f) => filters[f] !== undefined);
  return (
    <nav className="explorer-facets" aria-label={explorerTexts.facetsTitle}>
      <h2 className="explorer-facets__title">{explorerTexts.facetsTitle}</h2>
      {FACETS.map((facet) => {
        const label = explorerTexts.facetLabels[facet];
        const selected = filters[facet];
        return (
          <section key={facet} className="explorer-facets__group" aria-label={label}>
            <h3>{label}</h3>
            <ul>
              {facets[facet].map(({ value, count }) =>
                value === selected ? (
                  <li key={value} className="explorer-facets__chosen">
                    <span aria-current="true">{explorerTexts.facetValue(value, count)}</span>{" "}
                    <Link
                      to={facetHref(search, facet, null)}
                      aria-label={explorerTexts.removeFacet(label, value)}
                      preventScrollReset
                    >
                      ×
                    </Link>
                  </li>
                ) : (
                  <li key={value}>
                    <Link to={facetHref(search, facet, value)} preventScrollReset>
                      {explorerTexts.facetValue(value, count)}
                    </Link>
                  </li>
                ),
              )}
              {selected !== undefined && !facets[facet].some((v) => v.value === selected) ? (
                <li className="explorer-facets__chosen">
                  <span aria-current="true">{explorerTexts.facetValue(selected, 0)}</span>{" "}
                  <Link to={facetHref(search, facet, null)} aria-label={explorerTexts.removeFacet(label, selected)}>
                    ×
                  </Link>
                </li>
              ) : null}
            </ul>
          </section>
        );
      })}
      {chosen.length > 0 ? (
        <Link className="button button--secondary button--small" to={clearFacetsHref(search)}>
          {explorerTexts.clearFacets}
        </Link>
      ) : null}
    </nav>
  );
}
