import type { ShouldRevalidateFunction } from "@remix-run/react";

/** The URL parameter that opens a row's comment dialog on /ij/rh_edit/{filial}. */
export const COMMENT_PARAM = "comentario";

/** The grid's address with a row's comment dialog open. */
export function commentHrefOf(gridUrl: string, id: string): string {
  return `${gridUrl}${gridUrl.includes("?") ? "&" : "?"}${COMMENT_PARAM}=${id}`;
}

/** Opening or closing a comment dialog changes only its URL parameter: the rows need no reload. */
export const hrGridShouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const without = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete(COMMENT_PARAM);
    params.sort();
    return params.toString();
  };
  return without(currentUrl) === without(nextUrl) ? false : defaultShouldRevalidate;
};
