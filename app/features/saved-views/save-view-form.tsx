import { Form, Link, useLocation } from "@remix-run/react";
import type { FormEvent } from "react";
import { saveFormTexts as savedViewTexts, VIEWS_PATH } from "./save-form-texts";
import "./saved-views.css";

/** The address as the browser shows it now (a screen may write its fields there in place, as the review filter does). */
function keepAddressShown(event: FormEvent<HTMLFormElement>) {
  const path = event.currentTarget.elements.namedItem("path");
  if (path instanceof HTMLInputElement) path.value = `${window.location.pathname}${window.location.search}`;
}

/**
 * "Salvar visão" on a screen that keeps views: the address as it is now (its filters, columns, comparison, rows open)
 * under a name; the server keeps the screen's own parameters of it (view-address.ts). A plain form to /user/visoes,
 * which answers back to this screen with a toast; works without JavaScript. Folded under "Visões desta tela", so it
 * takes one line and its button is not among the screen's own until it is opened.
 */
export function SaveViewForm() {
  const location = useLocation();
  return (
    <details className="save-view">
      <summary>{savedViewTexts.summary}</summary>
      <Form
        method="post"
        action={VIEWS_PATH}
        className="save-view__form"
        aria-label={savedViewTexts.saveLegend}
        onSubmit={keepAddressShown}
      >
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="path" value={`${location.pathname}${location.search}`} />
        <label htmlFor="save-view-name">{savedViewTexts.nameLabel}</label>
        <input id="save-view-name" name="name" maxLength={60} required />
        <button type="submit" className="button button--secondary button--small">
          {savedViewTexts.save}
        </button>
        <Link to={VIEWS_PATH}>{savedViewTexts.myViews}</Link>
      </Form>
    </details>
  );
}
