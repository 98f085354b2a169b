import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "~/config.server";

/**
 * Pins the portal's "today" (PORTAL_TODAY) for the calling test file, restoring it afterwards. Forecast rows change
 * only in their RF's edit month, so a file that loads "RF1 2026" rows pins a day of November 2025. It sets the
 * environment, so test/isolation.ts gives the calling file a process of its own.
 */
export function usePortalToday(day: string): void {
  const saved = process.env.PORTAL_TODAY;
  beforeAll(() => {
    process.env.PORTAL_TODAY = day;
    resetConfigForTests();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PORTAL_TODAY;
    else process.env.PORTAL_TODAY = saved;
    resetConfigForTests();
  });
}
