import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { uiTexts } from "./texts";

type ErrorPage = { status: number; title: string; text: string };

/** Maps any thrown value to the page shown: 403, 404 and 503 as such, everything else as 500. */
export function errorPageFor(error: unknown): ErrorPage {
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) return { status: 403, title: uiTexts.forbiddenTitle, text: uiTexts.forbidden };
    if (error.status === 404) return { status: 404, title: uiTexts.notFoundTitle, text: uiTexts.notFound };
    // The host answers 503 when the database cannot be reached (server/db-availability.ts).
    if (error.status === 503) return { status: 503, title: uiTexts.unavailableTitle, text: uiTexts.unavailable };
  }
  return { status: 500, title: uiTexts.serverErrorTitle, text: uiTexts.serverError };
}

/** The shared error boundary: every route module re-exports it as its ErrorBoundary. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const page = errorPageFor(error);
  return (
    <section className="error-page" data-status={page.status}>
      <p className="error-page__status">{page.status}</p>
      <h1 className="error-page__title">{page.title}</h1>
      <p className="error-page__text">{page.text}</p>
      <Link className="button button--secondary" to="/">
        {uiTexts.backHome}
      </Link>
    </section>
  );
}
