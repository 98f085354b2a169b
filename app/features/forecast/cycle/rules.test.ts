import { describe, expect, it } from "vitest";
import { allowedActions, refusalOf, shownState, type CycleActor } from "./rules";
import { cycleTexts } from "./texts";

const preparer: CycleActor = { type: "USER GOLD", canEdit: true, isPreparer: true, isReviewer: false };
const reviewer: CycleActor = { type: "SYSTEM ADMIN", canEdit: true, isPreparer: false, isReviewer: true };
const reviewerWhoPrepares: CycleActor = { ...reviewer, isPreparer: true };
const readerReviewer: CycleActor = { type: "USER SILVER", canEdit: false, isPreparer: false, isReviewer: true };

describe("the cycle's rules", () => {
  it("lets each role take only its own transitions from the right state", () => {
    expect(allowedActions("preparing", preparer, "open")).toEqual(["submit"]);
    expect(allowedActions("returned", preparer, "open")).toEqual(["submit"]);
    expect(allowedActions("submitted", preparer, "open")).toEqual([]);
    expect(allowedActions("submitted", reviewer, "open")).toEqual(["approve", "return"]);
    expect(allowedActions("submitted", reviewer, "closed")).toEqual(["approve", "return"]);
    expect(allowedActions("submitted", readerReviewer, "open")).toEqual(["approve", "return"]);
    expect(allowedActions("submitted", reviewerWhoPrepares, "open")).toEqual([]);
    expect(allowedActions("approved", reviewer, "closed")).toEqual(["reopen"]);
    expect(allowedActions("approved", { ...preparer, type: "USER GOLD" }, "open")).toEqual([]);
  });

  it("says why a transition is refused", () => {
    expect(refusalOf("submit", "preparing", preparer, "upcoming", "05/2027")).toBe(
      cycleTexts.refused.notInEditMonth("05/2027"),
    );
    expect(refusalOf("submit", "preparing", { ...preparer, canEdit: false }, "open", "")).toBe(
      cycleTexts.refused.notEditor,
    );
    expect(refusalOf("approve", "approved", reviewer, "open", "")).toBe(
      cycleTexts.refused.wrongState("aprovar", "Aprovado"),
    );
    expect(refusalOf("reopen", "approved", preparer, "open", "")).toBe(cycleTexts.refused.notAdmin);
  });

  it("shows a cost centre not submitted by the end of the edit month as Não enviado", () => {
    expect(shownState("preparing", "open").label).toBe("Em preparação");
    expect(shownState("preparing", "closed")).toEqual({ code: "not_submitted", label: "Não enviado" });
    expect(shownState("returned", "closed").label).toBe("Não enviado");
    expect(shownState("submitted", "closed").label).toBe("Enviado");
    expect(shownState("approved", "closed").label).toBe("Aprovado");
  });
});
