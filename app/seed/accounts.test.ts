import { describe, expect, it } from "vitest";
import { DEFAULT_HR_EDITOR_TYPES } from "~/access";
import type { FeatureFlag } from "~/config.server";
import { DEMO_ACCOUNTS, demoAccountNote } from "./accounts";

/** The account list `npm run demo` prints says what each account opens, and it is true. */

const FLAGS: FeatureFlag[] = [
  "dashboard",
  "report",
  "jobsExecuted",
  "masterRepository",
  "upload",
  "planning",
  "explorer",
  "financialStatement",
  "auxCurrentMonth",
];
const everyFlagOn = {
  features: Object.fromEntries(FLAGS.map((f) => [f, true])) as Record<FeatureFlag, boolean>,
  hrEditorTypes: DEFAULT_HR_EDITOR_TYPES,
};
const noteOf = (email: string) => demoAccountNote(DEMO_ACCOUNTS.find((a) => a.email === email)!, everyFlagOn);

describe("the demo's printed account list", () => {
  it("names only what each type opens (spec 000 §6: user settings are USER ADMIN's alone)", () => {
    expect(noteOf("sysadmin@demo.local")).not.toContain("user settings");
    expect(noteOf("sysadmin@demo.local")).toContain("permissions");
    expect(noteOf("useradmin@demo.local")).toBe("user settings");
    expect(noteOf("permiss@demo.local")).toBe("permissions");
    expect(noteOf("explorer@demo.local")).toBe("explorer");
    expect(noteOf("bronze@demo.local")).toBe("uploads");
    expect(noteOf("silver@demo.local")).toBe("uploads, reports, HR (read only), explorer");
    expect(noteOf("notype@demo.local")).toBe("no permission type: CONTATE SEU ADMIN");
    expect(noteOf("firstaccess@demo.local")).toBe("uploads; must set a new password at first sign-in");
  });

  it("follows the configuration: a flag turned off takes its area out", () => {
    const planningOff = { ...everyFlagOn, features: { ...everyFlagOn.features, planning: false } };
    expect(demoAccountNote(DEMO_ACCOUNTS.find((a) => a.type === "USER GOLD")!, planningOff)).not.toContain("planning");
  });
});
