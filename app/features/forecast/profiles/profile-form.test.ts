import { describe, expect, it } from "vitest";
import { parseProfileForm, weightField } from "./profile-form";
import { profileTexts as t } from "./texts";

/** The seasonality profile's form as the server reads it: names, pt-BR weights, the intents. */

const ID = "66a1b2c3d4e5f60718293a4b";
const form = (fields: Record<string, string>, weights: string[] = Array(12).fill("1")) => {
  const body = new FormData();
  for (const [name, value] of Object.entries({ intent: "salvar", id: "", atualizado: "", nome: "Varejo", ...fields }))
    body.set(name, value);
  for (const [i, w] of weights.entries()) body.set(weightField(i + 1), w);
  return body;
};

describe("parseProfileForm", () => {
  it("reads a new profile: the name trimmed, pt-BR weights (1,5; 1.000; 0)", () => {
    const weights = ["1", "1,5", "1.000", "0", "0,25", "2", "2", "2", "2", "2", "3", "4"];
    expect(parseProfileForm(form({ nome: "  Varejo — Natal forte " }, weights))).toEqual({
      ok: true,
      intent: "salvar",
      id: null,
      seen: null,
      name: "Varejo — Natal forte",
      weights: [1, 1.5, 1000, 0, 0.25, 2, 2, 2, 2, 2, 3, 4],
    });
  });

  it("reads a change with the profile's id and the time it was read", () => {
    const parsed = parseProfileForm(form({ id: ID, atualizado: "1767225600000" }));
    expect(parsed).toMatchObject({ ok: true, intent: "salvar", id: ID, seen: 1_767_225_600_000 });
  });

  it("names each month whose weight is not a number from 0 to 1.000.000 with up to 4 decimals", () => {
    const weights = ["-1", "abc", "", "1,23456", "1.000.001", "1e3", "NaN", "Infinity", "1", "1", "1", "1"];
    const parsed = parseProfileForm(form({}, weights));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toEqual({
      peso1: t.weightInvalid("Janeiro"),
      peso2: t.weightInvalid("Fevereiro"),
      peso3: t.weightInvalid("Março"),
      peso4: t.weightInvalid("Abril"),
      peso5: t.weightInvalid("Maio"),
      peso6: t.weightInvalid("Junho"),
      peso7: t.weightInvalid("Julho"),
      peso8: t.weightInvalid("Agosto"),
    });
    // What was typed comes back as typed.
    expect(parsed.values.weights.slice(0, 3)).toEqual(["-1", "abc", ""]);
  });

  it("refuses weights that are all zero, and a name empty, too long or with control characters", () => {
    const zero = parseProfileForm(form({}, Array(12).fill("0")));
    expect(zero).toMatchObject({ ok: false, errors: { "": t.weightsZero } });
    for (const nome of ["", "   ", "x".repeat(81), "a\u0000b", "a\nb", "a\u007fb"])
      expect(parseProfileForm(form({ nome })), JSON.stringify(nome)).toMatchObject({
        ok: false,
        errors: { nome: t.nameInvalid },
      });
    expect(parseProfileForm(form({ nome: "x".repeat(80) })).ok).toBe(true);
  });

  it("reads a removal by id, and refuses a forged form (unknown intent, bad id, a change without its time)", () => {
    expect(parseProfileForm(form({ intent: "excluir", id: ID }))).toEqual({ ok: true, intent: "excluir", id: ID });
    const forged: Record<string, string>[] = [
      { intent: "apagar" },
      { id: "{ $ne: null }" },
      { id: ID },
      { atualizado: "-1" },
      { intent: "excluir", id: "" },
    ];
    for (const fields of forged) expect(parseProfileForm(form(fields)).ok, JSON.stringify(fields)).toBe(false);
    const missing = new FormData();
    missing.set("intent", "salvar");
    const read = parseProfileForm(missing);
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(Object.keys(read.errors)).toEqual(["nome", ...Array.from({ length: 12 }, (_, i) => `peso${i + 1}`)]);
  });
});
