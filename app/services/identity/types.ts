import type { ProviderTokens } from "~/models/sessions.server";

/** The contract both identity providers (local, cognito) fulfil. */

export type { ProviderTokens };

export type SignInResult =
  | { kind: "ok"; tokens?: ProviderTokens }
  | { kind: "newPasswordRequired"; challengeSession: string }
  | { kind: "invalid" }
  /** The provider throttled the request (Cognito TooManyRequests / LimitExceeded): try again later. */
  | { kind: "throttled" };

export type CompleteNewPasswordResult =
  | { kind: "ok"; tokens?: ProviderTokens }
  /** The challenge expired, was forged or already used: sign in again. */
  | { kind: "invalid" }
  /** The provider refused the password; `message` is the provider's own text. */
  | { kind: "error"; message: string }
  | { kind: "throttled" };

export type ProviderResult = { kind: "ok" } | { kind: "error"; message: string };

export class UserExistsError extends Error {
  constructor(readonly email: string) {
    super(`user already exists: ${email}`);
    this.name = "UserExistsError";
  }
}

/**
 * A provider failure the caller turns into a message instead of a 500:
 * - throttled: the provider refused the request for its rate (try again later);
 * - invalidInput: the provider refused a parameter (e.g. longer than it accepts);
 * - mailFailed: the account could not be told its temporary password, so it was not kept.
 * A provider that throws this has left nothing behind.
 */
export class IdentityProviderError extends Error {
  constructor(
    readonly reason: "throttled" | "invalidInput" | "mailFailed",
    options?: { cause?: unknown },
  ) {
    super(`identity provider: ${reason}`, options);
    this.name = "IdentityProviderError";
  }
}

export interface IdentityProvider {
  readonly kind: "local" | "cognito";
  signIn(email: string, password: string): Promise<SignInResult>;
  completeNewPassword(email: string, challengeSession: string, newPassword: string): Promise<CompleteNewPasswordResult>;
  /** Sends a reset code. Answers the same for unknown e-mails (no enumeration), sending nothing. */
  forgotPassword(email: string): Promise<ProviderResult>;
  confirmForgotPassword(email: string, code: string, newPassword: string): Promise<ProviderResult>;
  /**
   * Creates the account with a temporary password sent by e-mail. All or nothing: throws UserExistsError for a
   * duplicate and IdentityProviderError (having kept nothing) when the account cannot be created or told.
   */
  adminCreateUser(email: string): Promise<void>;
  /** Deletes the account; an unknown e-mail is not an error. */
  adminDeleteUser(email: string): Promise<void>;
  /** Ends the provider's sessions of the tokens' user (Cognito GlobalSignOut); never throws. */
  signOut(tokens?: ProviderTokens): Promise<void>;
}
