import { describe, expect, it } from "vitest";
import {
  CYCLE_ACTIONS,
  CYCLE_STATES,
  FROZEN_STATES,
  INITIAL_STATE,
  SHOWN_CODES,
  TRANSITIONS,
} from "~/models/forecast-cycle.fields";
import { parseBoardQuery } from "./board.server";
import { CYCLE_ACTION } from "./cycle.server";
import { cycleAnswerTexts } from "./server-texts";
import { cycleTexts, STATE_LABELS, shownLabel } from "./texts";

/**
 * The forecast cycle's vocabulary (app/models/forecast-cycle.fields.ts) is the one list of its states and actions:
 * the forms' enum, the texts, the transitions and the board's filter cover exactly its members, no more, no fewer.
 */

const sorted = (items: Iterable<string>) => [...items].sort();

describe("the forecast cycle's vocabulary", () => {
  it("is what the cycle's forms take: the action's zod enum has exactly its actions", () => {
    expect(sorted(CYCLE_ACTION.options)).toEqual(sorted(CYCLE_ACTIONS));
    expect(CYCLE_ACTION.safeParse("delete").success).toBe(false);
  });

  it("has a text for every state and action, and none for another", () => {
    expect(sorted(Object.keys(STATE_LABELS))).toEqual(sorted(CYCLE_STATES));
    for (const texts of [
      cycleTexts.actions,
      cycleTexts.actionVerbs,
      cycleAnswerTexts.done,
      cycleAnswerTexts.actionInfinitive,
    ])
      expect(sorted(Object.keys(texts))).toEqual(sorted(CYCLE_ACTIONS));
    const labels = SHOWN_CODES.map(shownLabel);
    expect(new Set(labels).size).toBe(SHOWN_CODES.length);
    expect(labels.every((label) => label.trim() !== "")).toBe(true);
  });

  it("gives every action one transition between its states, and every state is reached or left by one", () => {
    expect(sorted(Object.keys(TRANSITIONS))).toEqual(sorted(CYCLE_ACTIONS));
    const touched = new Set<string>([INITIAL_STATE]);
    for (const { from, to } of Object.values(TRANSITIONS)) {
      expect(from.length).toBeGreaterThan(0);
      for (const state of [...from, to]) {
        expect(CYCLE_STATES).toContain(state);
        touched.add(state);
      }
    }
    expect(sorted(touched)).toEqual(sorted(CYCLE_STATES));
    for (const state of FROZEN_STATES) expect(CYCLE_STATES).toContain(state);
  });

  it("is what the status board filters by: every shown code, and nothing else", () => {
    for (const code of SHOWN_CODES) expect(parseBoardQuery(new URLSearchParams({ estado: code })).state).toBe(code);
    expect(parseBoardQuery(new URLSearchParams({ estado: "enviado" })).state).toBeNull();
  });
});
