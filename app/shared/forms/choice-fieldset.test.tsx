import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChoiceFieldset } from "./choice-fieldset";

const MODES = ["igual", "pesos"] as const;
const LABELS = { igual: "Igualmente", pesos: "Por pesos informados" };

describe("ChoiceFieldset", () => {
  it("posts one radio choice under its name, the checked one first selected, each input inside its label", () => {
    const html = renderToStaticMarkup(
      <ChoiceFieldset
        legend="Como distribuir"
        name="modo"
        choices={MODES}
        labelOf={(m) => LABELS[m]}
        checked={(m) => m === "pesos"}
        choiceClassName="spread__choice"
      />,
    );
    expect(html).toBe(
      '<fieldset class="field"><legend>Como distribuir</legend>' +
        '<label class="spread__choice"><input type="radio" name="modo" value="igual"/>Igualmente</label>' +
        '<label class="spread__choice"><input type="radio" name="modo" checked="" value="pesos"/>Por pesos informados</label>' +
        "</fieldset>",
    );
  });

  it("offers checkboxes with `multiple`, labelled by their values, and is described by its hint", () => {
    const html = renderToStaticMarkup(
      <ChoiceFieldset
        legend="Contas"
        name="conta"
        choices={["4.1.01", "4.1.02"]}
        checked={(a) => a !== "4.1.01"}
        multiple
        className="spread__accounts"
        hint={{ id: "accounts-hint", text: "Uma ou mais." }}
      />,
    );
    expect(html).toBe(
      '<fieldset class="field spread__accounts" aria-describedby="accounts-hint"><legend>Contas</legend>' +
        '<label><input type="checkbox" name="conta" value="4.1.01"/>4.1.01</label>' +
        '<label><input type="checkbox" name="conta" checked="" value="4.1.02"/>4.1.02</label>' +
        '<small id="accounts-hint">Uma ou mais.</small></fieldset>',
    );
  });
});
