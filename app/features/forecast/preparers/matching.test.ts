import { describe, expect, it } from "vitest";
import { costCenterCode, matchResponsibles, nameKey, peopleNamed } from "./matching";

const CENTERS = ["CC1001 - Marketing", "CC223601 - Controladoria", "CC4313 - Logística"];
const USERS = [
  { user: "joao@example.com", name: "João  da Silva", type: "USER GOLD" },
  { user: "ana1@example.com", name: "Ana Souza", type: "USER GOLD" },
  { user: "ana2@example.com", name: "ANA SOUZA", type: "SYSTEM ADMIN" },
  { user: "bia@example.com", name: "Beatriz Lima", type: "USER SILVER" },
  { user: "caio@example.com", name: "Caio Prado", type: "SYSTEM ADMIN" },
];
const mayEdit = (type: string) => type === "SYSTEM ADMIN" || type === "USER GOLD";
const match = (rows: { unit?: string; costCenter: string; userResponsible: string }[]) =>
  matchResponsibles(
    rows.map((r) => ({ unit: r.unit ?? "2236", ...r })),
    CENTERS,
    USERS,
    mayEdit,
  );

describe("nameKey and costCenterCode", () => {
  it("compare names without accents, case or extra spaces", () => {
    expect(nameKey("  JOÃO   da  Silva ")).toBe(nameKey("joao da silva"));
    expect(nameKey("Conceição")).toBe("conceicao");
    expect(costCenterCode("cc1001 - Marketing")).toBe("CC1001");
    expect(costCenterCode("CC1001")).toBe("CC1001");
  });
});

describe("matchResponsibles", () => {
  it("matches a name written with other accents, case and spaces to its one user", () => {
    const { proposals, unmatched } = match([{ costCenter: "CC1001 - Marketing", userResponsible: "joao DA   silva" }]);
    expect(unmatched).toEqual([]);
    expect(proposals).toEqual([
      {
        unit: "2236",
        source: "CC1001 - Marketing",
        cost_center_concat: "CC1001 - Marketing",
        user: "joao@example.com",
        name: "João  da Silva",
      },
    ]);
  });

  it("matches the cost centre by its code when the name after it differs", () => {
    const { proposals } = match([{ costCenter: "CC223601 - Controladoria Brasil", userResponsible: "Caio Prado" }]);
    expect(proposals.map((p) => [p.cost_center_concat, p.user])).toEqual([
      ["CC223601 - Controladoria", "caio@example.com"],
    ]);
  });

  it("does not guess between two users with the same name", () => {
    const { proposals, unmatched } = match([{ costCenter: "CC1001 - Marketing", userResponsible: "Ana Souza" }]);
    expect(proposals).toEqual([]);
    expect(unmatched.map((u) => u.reason)).toEqual([{ kind: "manyUsers", count: 2 }]);
  });

  it("lists what did not match, with the reason", () => {
    const { proposals, unmatched } = match([
      { unit: "4313", costCenter: "CC9999 - Inexistente", userResponsible: "Caio Prado" },
      { unit: "4664", costCenter: "CC1001 - Marketing", userResponsible: "Pessoa Desconhecida" },
      { unit: "5454", costCenter: "CC4313 - Logística", userResponsible: "Beatriz Lima" },
      { unit: "9311", costCenter: "CC4313 - Logística", userResponsible: "  " },
    ]);
    expect(proposals).toEqual([]);
    expect(unmatched.map((u) => [u.unit, u.reason])).toEqual([
      ["4313", { kind: "costCenterNotFound" }],
      ["4664", { kind: "noUser" }],
      ["5454", { kind: "cannotEdit", user: "bia@example.com", type: "USER SILVER" }],
      ["9311", { kind: "noName" }],
    ]);
  });

  it("refuses a code shared by two forecast cost centres, and proposes a pair once", () => {
    const result = matchResponsibles(
      [
        { unit: "1", costCenter: "CC1 - Antigo", userResponsible: "Caio Prado" },
        { unit: "2", costCenter: "CC2 - X", userResponsible: "Caio Prado" },
        { unit: "3", costCenter: "CC2 - X", userResponsible: "caio prado" },
      ],
      ["CC1 - A", "CC1 - B", "CC2 - X"],
      USERS,
      mayEdit,
    );
    expect(result.unmatched.map((u) => u.reason)).toEqual([{ kind: "costCenterAmbiguous", count: 2 }]);
    expect(result.proposals.map((p) => p.unit)).toEqual(["2"]);
  });
});

describe("peopleNamed", () => {
  const emails = (typed: string) => peopleNamed(typed, USERS).map((u) => u.user);
  it("is whoever has the name, else whoever has a word starting with each word typed; nothing for no name", () => {
    expect(emails(" joao DA silva ")).toEqual(["joao@example.com"]);
    expect(emails("ana souza")).toEqual(["ana1@example.com", "ana2@example.com"]);
    expect(emails("bea li")).toEqual(["bia@example.com"]);
    expect(emails("Caio")).toEqual(["caio@example.com"]);
    expect(emails("Gabriela")).toEqual([]);
    // A word must start a word of the name: "ouza" is inside "Souza", not its start.
    expect(emails("ouza")).toEqual([]);
    expect(emails("   ")).toEqual([]);
  });

  it("prefers the exact name to names that start so", () => {
    const people = [{ name: "Ana" }, { name: "Ana Paula" }, { name: "Anabela" }];
    expect(peopleNamed("ana", people)).toEqual([{ name: "Ana" }]);
    expect(peopleNamed("ana p", people)).toEqual([{ name: "Ana Paula" }]);
    expect(peopleNamed("an", people)).toHaveLength(3);
  });
});
