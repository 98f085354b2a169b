import { useLocation } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { hrTexts } from "./texts";

/** The grid's loading failure (the database did not answer): say so and offer to try again. */
export function HrLoadFailed() {
  const location = useLocation();
  return (
    <section className="hr-page" aria-labelledby="hr-error-title">
      <h1 id="hr-error-title">{hrTexts.title}</h1>
      <Alert tone="error">{hrTexts.loadFailed}</Alert>
      <p>
        <a className="button button--secondary" href={`${location.pathname}${location.search}`}>
          {hrTexts.retry}
        </a>
      </p>
    </section>
  );
}
