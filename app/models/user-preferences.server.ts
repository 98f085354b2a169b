import { getDb } from "~/db.server";
import type { PermissionType } from "~/shared/permissions";

/**
 * Each user's own preferences (/user/settings), one document per user keyed by the user's e-mail (lower case). A
 * user without a document has the defaults. New preferences add a field here, a default in DEFAULT_PREFERENCES and a
 * switch on the settings page.
 */
export const USER_PREFERENCES = "user_preferences";

export type UserPreferences = {
  /** Notices also go by e-mail (the in-portal list always keeps them). */
  emailNotices: boolean;
  /** The user is also told when an upload of theirs ends without errors (failures are always told). */
  jobSuccessNotices: boolean;
  /**
   * On call: told of every job that ends badly, anyone's. Only a SYSTEM ADMIN may switch it on, and only
   * users still of that type get such notices (job-notices.server.ts).
   */
  onCallFailures: boolean;
};

/** The only type that may be on call for every job's failures (onCallFailures): chosen and checked at send time. */
export const ON_CALL_TYPE: PermissionType = "SYSTEM ADMIN";

export const DEFAULT_PREFERENCES: Readonly<UserPreferences> = {
  emailNotices: true,
  jobSuccessNotices: false,
  onCallFailures: false,
};

type PreferencesRecord = {
  _id: string;
  email_notices?: boolean;
  job_success_notices?: boolean;
  on_call_failures?: boolean;
  updated_at: Date;
};

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function fromRecord(record: PreferencesRecord | null): UserPreferences {
  return {
    emailNotices: record?.email_notices ?? DEFAULT_PREFERENCES.emailNotices,
    jobSuccessNotices: record?.job_success_notices ?? DEFAULT_PREFERENCES.jobSuccessNotices,
    onCallFailures: record?.on_call_failures ?? DEFAULT_PREFERENCES.onCallFailures,
  };
}

export async function getPreferences(email: string): Promise<UserPreferences> {
  const db = await getDb();
  return fromRecord(await db.collection<PreferencesRecord>(USER_PREFERENCES).findOne({ _id: normalizeEmail(email) }));
}

/** The preferences of several users at once (one read), keyed by normalized e-mail. */
export async function getPreferencesOf(emails: readonly string[]): Promise<Map<string, UserPreferences>> {
  const ids = [...new Set(emails.map(normalizeEmail))];
  const db = await getDb();
  const records =
    ids.length === 0
      ? []
      : await db
          .collection<PreferencesRecord>(USER_PREFERENCES)
          .find({ _id: { $in: ids } })
          .toArray();
  const byId = new Map(records.map((r) => [r._id, r]));
  return new Map(ids.map((id) => [id, fromRecord(byId.get(id) ?? null)]));
}

/** Saves the given preferences (already validated); the fields not given keep their value. */
export async function savePreferences(
  email: string,
  preferences: Partial<UserPreferences>,
  now = new Date(),
): Promise<void> {
  const set: Partial<PreferencesRecord> = { updated_at: now };
  if (typeof preferences.emailNotices === "boolean") set.email_notices = preferences.emailNotices;
  if (typeof preferences.jobSuccessNotices === "boolean") set.job_success_notices = preferences.jobSuccessNotices;
  if (typeof preferences.onCallFailures === "boolean") set.on_call_failures = preferences.onCallFailures;
  const db = await getDb();
  await db
    .collection<PreferencesRecord>(USER_PREFERENCES)
    .updateOne({ _id: normalizeEmail(email) }, { $set: set }, { upsert: true });
}
