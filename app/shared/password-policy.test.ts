import { describe, expect, it } from "vitest";
import { messages } from "~/messages";
import { newPasswordSchema } from "~/shared/password-schema";
import {
  checkPassword,
  confirmationRequiredMessage,
  isPasswordValid,
  newPasswordErrors,
  PASSWORD_MIN_LENGTH,
  type PasswordRule,
  passwordRequiredMessage,
  passwordRuleMessages,
  passwordRulePhrases,
} from "./password-policy";

describe("password policy (spec 000 §5, the stricter rule)", () => {
  it("accepts a password with 8+ characters, upper, lower, digit and special", () => {
    expect(checkPassword("Abcdef1!")).toEqual([]);
    expect(isPasswordValid("Journey#2024")).toBe(true);
  });

  it("has a minimum length of 8", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(checkPassword("Abcde1!")).toEqual(["minLength"]);
  });

  it("names each unmet rule", () => {
    expect(checkPassword("abcdefg1!")).toEqual(["uppercase"]);
    expect(checkPassword("ABCDEFG1!")).toEqual(["lowercase"]);
    expect(checkPassword("Abcdefgh!")).toEqual(["digit"]);
    expect(checkPassword("Abcdefgh1")).toEqual(["special"]);
    expect(checkPassword("")).toEqual(["minLength", "uppercase", "lowercase", "digit", "special"]);
  });

  it("counts spaces and any non-alphanumeric symbol as special", () => {
    expect(checkPassword("Abcdef1 x")).toEqual([]);
    expect(checkPassword("Abcdef1_x")).toEqual([]);
    expect(checkPassword("Abcdef1ç€")).toEqual([]);
  });

  it("counts accented letters as letters, not as the special character", () => {
    expect(checkPassword("Ábcdéf12")).toEqual(["special"]);
  });

  it("has a Portuguese message for every rule", () => {
    for (const rule of ["minLength", "uppercase", "lowercase", "digit", "special"] as const) {
      expect(passwordRuleMessages[rule]).toMatch(/[a-zà-ú]/);
    }
    expect(passwordRuleMessages.minLength).toContain("8");
  });
});

describe("the hint shown above the new password", () => {
  it("names every rule the validator checks, and a password that meets each rule it names passes", () => {
    expect(messages.passwordHelper).toBe(
      "A senha deve ter no mínimo 8 caracteres, com pelo menos 1 letra maiúscula, 1 letra minúscula, 1 número e 1 caractere especial.",
    );
    // One password per rule the hint leaves out would pass the hint and fail the validator: there is none.
    const rules: PasswordRule[] = ["minLength", "uppercase", "lowercase", "digit", "special"];
    for (const rule of rules) expect(messages.passwordHelper).toContain(passwordRulePhrases[rule]);
  });
});

describe("newPasswordSchema", () => {
  it("accepts matching valid passwords", () => {
    const r = newPasswordSchema.safeParse({ password: "Abcdef1!", confirmPassword: "Abcdef1!" });
    expect(r.success).toBe(true);
  });

  it("reports a mismatch on the confirmation with the spec's text", () => {
    const r = newPasswordSchema.safeParse({ password: "Abcdef1!", confirmPassword: "Abcdef1?" });
    expect(r.success).toBe(false);
    const issue = r.error!.issues.find((i) => i.path[0] === "confirmPassword");
    expect(issue?.message).toBe(messages.passwordMismatch);
    expect(messages.passwordMismatch).toBe("Por favor verifique se as senhas correspondem.");
  });

  it("reports every unmet rule on the password field", () => {
    const r = newPasswordSchema.safeParse({ password: "abc", confirmPassword: "abc" });
    expect(r.success).toBe(false);
    const texts = r.error!.issues.filter((i) => i.path[0] === "password").map((i) => i.message);
    expect(texts).toEqual([
      passwordRuleMessages.minLength,
      passwordRuleMessages.uppercase,
      passwordRuleMessages.digit,
      passwordRuleMessages.special,
    ]);
  });

  it("requires both fields", () => {
    const r = newPasswordSchema.safeParse({});
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path[0]);
    expect(paths).toContain("password");
    expect(paths).toContain("confirmPassword");
  });
});

describe("newPasswordErrors (the browser's check, no zod) and newPasswordSchema (the server's) agree", () => {
  const cases: Array<Record<string, string | undefined>> = [
    { password: "Abcdef1!", confirmPassword: "Abcdef1!" },
    { password: "Abcdef1!", confirmPassword: "Abcdef1?" },
    { password: "abc", confirmPassword: "abc" },
    { password: "abc", confirmPassword: "" },
    { password: "", confirmPassword: "Abcdef1!" },
    {},
  ];
  for (const input of cases) {
    it(JSON.stringify(input), () => {
      const errors = newPasswordErrors(input);
      const parsed = newPasswordSchema.safeParse(input);
      const fromSchema: Record<string, string[]> = {};
      for (const issue of parsed.success ? [] : parsed.error.issues)
        (fromSchema[String(issue.path[0])] ??= []).push(issue.message);
      expect(fromSchema).toEqual(errors);
    });
  }

  it("asks for each missing field and compares any two given passwords", () => {
    expect(newPasswordErrors({})).toEqual({
      password: [passwordRequiredMessage],
      confirmPassword: [confirmationRequiredMessage],
    });
    expect(newPasswordErrors({ password: "abc", confirmPassword: "xyz" }).confirmPassword).toEqual([
      messages.passwordMismatch,
    ]);
    expect(newPasswordErrors({ password: "Abcdef1!", confirmPassword: "x" })).toEqual({
      confirmPassword: [messages.passwordMismatch],
    });
  });
});
