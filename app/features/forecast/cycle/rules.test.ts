import { describe, expect, it } from "vitest";
import { allowedActions, type CycleActor, refusalOf, shownState, submissionBinds } from "./rules";
import { cycleAnswerTexts } from "./server-texts";

const preparer: CycleActor = {
  type: "USER GOLD",
  canEdit: true,
  isPreparer: true,
  boundBySubmission: false,
  isReviewer: false,
};
const reviewer: CycleActor = {
  type: "SYSTEM ADMIN",
  canEdit: true,
  isPreparer: false,
  boundBySubmission: false,
  isReviewer: true,
};
const reviewerWhoPrepares: CycleActor = { ...reviewer, isPreparer: true };
const reviewerWhoSubmitted: CycleActor = { ...reviewer, boundBySubmission: true };
const readerReviewer: CycleActor = { ...reviewer, type: "USER SILVER", canEdit: false };

describe("the cycle's rules", () => {
  it("lets each role take only its own transitions from the right state", () => {
    expect(allowedActions("preparing", preparer, "open")).toEqual(["submit"]);
    expect(allowedActions("returned", preparer, "open")).toEqual(["submit"]);
    // A preparer may take a submission back in the edit month, while no reviewer has decided.
    expect(allowedActions("submitted", preparer, "open")).toEqual(["withdraw"]);
    expect(allowedActions("submitted", preparer, "closed")).toEqual([]);
    expect(allowedActions("submitted", reviewer, "open")).toEqual(["approve", "return"]);
    expect(allowedActions("submitted", reviewer, "closed")).toEqual(["approve", "return"]);
    expect(allowedActions("submitted", readerReviewer, "open")).toEqual(["approve", "return"]);
    expect(allowedActions("submitted", reviewerWhoPrepares, "open")).toEqual(["withdraw"]);
    expect(allowedActions("submitted", reviewerWhoSubmitted, "closed")).toEqual([]);
    expect(allowedActions("approved", reviewer, "closed")).toEqual(["reopen"]);
    expect(allowedActions("approved", { ...preparer, type: "USER GOLD" }, "open")).toEqual([]);
  });

  it("says why a transition is refused", () => {
    expect(refusalOf("submit", "preparing", preparer, "upcoming", "05/2027")).toBe(
      cycleAnswerTexts.refused.notInEditMonth("05/2027"),
    );
    expect(refusalOf("submit", "preparing", { ...preparer, canEdit: false }, "open", "")).toBe(
      cycleAnswerTexts.refused.notEditor,
    );
    expect(refusalOf("approve", "approved", reviewer, "open", "")).toBe(
      cycleAnswerTexts.refused.wrongState("aprovar", "Aprovado"),
    );
    expect(refusalOf("reopen", "approved", preparer, "open", "")).toBe(cycleAnswerTexts.refused.notAdmin);
    expect(refusalOf("return", "submitted", reviewerWhoSubmitted, "open", "")).toBe(
      cycleAnswerTexts.refused.ownSubmission,
    );
  });

  it("binds the submitter and the preparers at submission, whatever the case of the e-mail", () => {
    const submission = { by: "Admin2@Example.com", preparers: ["prep@example.com"] };
    expect(submissionBinds("admin2@example.com", submission)).toBe(true);
    expect(submissionBinds("PREP@example.com", submission)).toBe(true);
    expect(submissionBinds("admin@example.com", submission)).toBe(false);
    expect(submissionBinds("admin@example.com", { by: null, preparers: [] })).toBe(false);
  });

  it("shows a cost centre not submitted by the end of the edit month as Não enviado", () => {
    expect(shownState("preparing", "open").label).toBe("Em preparação");
    expect(shownState("preparing", "closed")).toEqual({ code: "not_submitted", label: "Não enviado" });
    expect(shownState("returned", "closed").label).toBe("Não enviado");
    expect(shownState("submitted", "closed").label).toBe("Enviado");
    expect(shownState("approved", "closed").label).toBe("Aprovado");
  });
});
