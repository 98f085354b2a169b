import { z } from "zod";
import { getConfig } from "~/config.server";
import { messages } from "~/messages";
import { normalizeEmail } from "~/models/users.server";
import { hasControlCharacter } from "~/shared/control-characters";

/**
 * What both single sign-on modes hand to the sign-in completion: a verified e-mail and, when the
 * identity provider bounds it, the moment the portal session must end at the latest.
 */
export type SsoIdentity = {
  email: string;
  sessionNotOnOrAfter?: Date;
};

/**
 * A refused single sign-on. `reason` is for the log (it may name the validation that failed); the user sees the
 * error's message: `messages.ssoFailed`, or `userMessage` when the user can act on the cause.
 */
export class SsoError extends Error {
  constructor(
    public readonly reason: string,
    options?: { cause?: unknown; userMessage?: string },
  ) {
    const message = options?.userMessage ?? messages.ssoFailed;
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SsoError";
  }
}

/** The login page's single sign-on button, or null when SSO_MODE=none. */
export function getSsoEntry(): { label: string; href: string } | null {
  const config = getConfig();
  if (config.sso.mode === "none") return null;
  return { label: messages.ssoButton(config.companyName), href: "/saml/login" };
}

const emailSchema = z.string().trim().email().max(254);

/** A verified e-mail, normalized the way the permission records store it; null when unusable. */
export function toVerifiedEmail(value: unknown): string | null {
  const candidate = Array.isArray(value) ? value.find((v) => typeof v === "string") : value;
  const parsed = emailSchema.safeParse(candidate);
  return parsed.success ? normalizeEmail(parsed.data) : null;
}

/**
 * Where to go after sign-in when the flow carried a return path: only a same-site path
 * ("/x", never "//host" or "/\host"), else undefined so the landing of the user's type wins.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 512) return undefined;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return undefined;
  if (hasControlCharacter(value, false)) return undefined;
  return value;
}

/** Logs a refused SSO attempt at warn level: it is an expected event, not a server fault. */
export function logSsoRefusal(mode: string, error: unknown) {
  const reason = error instanceof SsoError ? error.reason : error instanceof Error ? error.message : String(error);
  const cause = error instanceof SsoError && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  console.warn(`[sso:${mode}] sign-in refused (${reason}${cause})`);
}
