import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { indexes as authRecordIndexes, LOGIN_ATTEMPTS } from "~/models/auth-records.server";
import { allowSsoStart } from "./sso-start-limit.server";

/**
 * The limit of single sign-on starts per client address holds under a burst: every start is reserved before it is
 * counted, so parallel starts see each other and no more than SSO_START_MAX_PER_IP get through.
 */

process.env.LOG_LEVEL = "warn";
const testDb = useTestDatabase();

beforeAll(async () => {
  await applyIndexes(await testDb.db(), authRecordIndexes);
});

afterEach(() => {
  delete process.env.SSO_START_MAX_PER_IP;
  resetConfigForTests();
});

describe("allowSsoStart", () => {
  it("lets at most SSO_START_MAX_PER_IP of 40 parallel starts from one address through", async () => {
    process.env.SSO_START_MAX_PER_IP = "4";
    resetConfigForTests();
    const answers = await Promise.all(Array.from({ length: 40 }, () => allowSsoStart("203.0.113.40")));
    expect(answers.filter(Boolean).length).toBeLessThanOrEqual(4);
    // Refused starts leave nothing behind: the allowance is counted in starts let through.
    const kept = await (await testDb.db()).collection(LOGIN_ATTEMPTS).countDocuments({ key: /^sso-start:/ });
    expect(kept).toBe(answers.filter(Boolean).length);
    expect(await allowSsoStart("203.0.113.41")).toBe(true);
  });

  it("counts the addresses of one IPv6 /64 together", async () => {
    process.env.SSO_START_MAX_PER_IP = "3";
    resetConfigForTests();
    for (let i = 1; i <= 3; i++) expect(await allowSsoStart(`2001:db8:40:1::${i}`)).toBe(true);
    expect(await allowSsoStart("2001:db8:40:1:ffff::9")).toBe(false);
    expect(await allowSsoStart("2001:db8:40:2::1")).toBe(true);
  });
});
