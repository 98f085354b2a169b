import { createHmac } from "node:crypto";
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  type AuthenticationResultType,
} from "@aws-sdk/client-cognito-identity-provider";
import { normalizeEmail } from "~/models/users.server";
import { UserExistsError, type IdentityProvider, type ProviderResult, type ProviderTokens } from "./types";

/** Amazon Cognito user pools as the identity provider (USER_PASSWORD_AUTH on an app client). */

export type CognitoOptions = {
  region: string;
  userPoolId: string;
  clientId: string;
  clientSecret?: string;
  /** For tests: a preconfigured client. */
  client?: CognitoIdentityProviderClient;
};

function errorName(error: unknown): string | undefined {
  return error && typeof error === "object" && "name" in error && typeof error.name === "string" ? error.name : undefined;
}

function errorMessage(error: unknown, fallback: string): string {
  const message = error instanceof Error ? error.message : undefined;
  return message && message.trim() ? message : fallback;
}

function tokensOf(result: AuthenticationResultType | undefined): ProviderTokens | undefined {
  if (!result?.AccessToken) return undefined;
  return {
    accessToken: result.AccessToken,
    ...(result.IdToken ? { idToken: result.IdToken } : {}),
    ...(result.RefreshToken ? { refreshToken: result.RefreshToken } : {}),
    ...(result.ExpiresIn !== undefined ? { expiresIn: result.ExpiresIn } : {}),
  };
}

/** Errors whose provider message the user should read (spec 000 §8 "the provider's message"). */
const USER_FACING = new Set([
  "CodeMismatchException",
  "ExpiredCodeException",
  "InvalidPasswordException",
  "LimitExceededException",
  "TooManyFailedAttemptsException",
  "TooManyRequestsException",
  "PasswordHistoryPolicyViolationException",
]);

export function createCognitoIdentityProvider(options: CognitoOptions): IdentityProvider {
  const client = options.client ?? new CognitoIdentityProviderClient({ region: options.region });
  const { clientId, userPoolId, clientSecret } = options;

  /** SECRET_HASH = Base64(HMAC_SHA256(client secret, username + client id)), only with a client secret. */
  const secretHash = (username: string) =>
    clientSecret ? createHmac("sha256", clientSecret).update(username + clientId).digest("base64") : undefined;

  return {
    kind: "cognito",

    async signIn(email, password) {
      const username = normalizeEmail(email);
      const hash = secretHash(username);
      try {
        const out = await client.send(
          new InitiateAuthCommand({
            AuthFlow: "USER_PASSWORD_AUTH",
            ClientId: clientId,
            AuthParameters: { USERNAME: username, PASSWORD: password, ...(hash ? { SECRET_HASH: hash } : {}) },
          }),
        );
        if (out.ChallengeName === "NEW_PASSWORD_REQUIRED" && out.Session) {
          return { kind: "newPasswordRequired", challengeSession: out.Session };
        }
        const tokens = tokensOf(out.AuthenticationResult);
        if (tokens) return { kind: "ok", tokens };
        throw new Error(`Cognito InitiateAuth answered an unsupported challenge: ${out.ChallengeName ?? "none"}`);
      } catch (error) {
        const name = errorName(error);
        // PasswordResetRequired / UserNotConfirmed: the account cannot sign in with this password; the user
        // recovers through "forgot password". Answering "invalid" also avoids telling who exists.
        if (
          name === "NotAuthorizedException" ||
          name === "UserNotFoundException" ||
          name === "PasswordResetRequiredException" ||
          name === "UserNotConfirmedException"
        ) {
          return { kind: "invalid" };
        }
        throw error;
      }
    },

    async completeNewPassword(email, challengeSession, newPassword) {
      const username = normalizeEmail(email);
      const hash = secretHash(username);
      try {
        const out = await client.send(
          new RespondToAuthChallengeCommand({
            ChallengeName: "NEW_PASSWORD_REQUIRED",
            ClientId: clientId,
            Session: challengeSession,
            ChallengeResponses: { USERNAME: username, NEW_PASSWORD: newPassword, ...(hash ? { SECRET_HASH: hash } : {}) },
          }),
        );
        return { kind: "ok", tokens: tokensOf(out.AuthenticationResult) };
      } catch (error) {
        const name = errorName(error);
        if (name === "InvalidPasswordException") return { kind: "error", message: errorMessage(error, name) };
        // An expired or reused challenge session comes back as NotAuthorized / CodeMismatch ("Invalid session").
        if (name === "NotAuthorizedException" || name === "CodeMismatchException" || name === "ExpiredCodeException" || name === "UserNotFoundException") {
          return { kind: "invalid" };
        }
        throw error;
      }
    },

    async forgotPassword(email): Promise<ProviderResult> {
      const username = normalizeEmail(email);
      const hash = secretHash(username);
      try {
        await client.send(new ForgotPasswordCommand({ ClientId: clientId, Username: username, ...(hash ? { SecretHash: hash } : {}) }));
        return { kind: "ok" };
      } catch (error) {
        const name = errorName(error);
        // Unknown users (or users without a verified e-mail) answer like known ones: no enumeration.
        if (name === "UserNotFoundException" || name === "InvalidParameterException" || name === "NotAuthorizedException") return { kind: "ok" };
        if (name && USER_FACING.has(name)) return { kind: "error", message: errorMessage(error, name) };
        throw error;
      }
    },

    async confirmForgotPassword(email, code, newPassword): Promise<ProviderResult> {
      const username = normalizeEmail(email);
      const hash = secretHash(username);
      try {
        await client.send(
          new ConfirmForgotPasswordCommand({
            ClientId: clientId,
            Username: username,
            ConfirmationCode: code.trim(),
            Password: newPassword,
            ...(hash ? { SecretHash: hash } : {}),
          }),
        );
        return { kind: "ok" };
      } catch (error) {
        const name = errorName(error);
        if (name && (USER_FACING.has(name) || name === "InvalidParameterException")) return { kind: "error", message: errorMessage(error, name) };
        if (name === "UserNotFoundException" || name === "NotAuthorizedException") {
          return { kind: "error", message: "Invalid verification code provided, please try again." };
        }
        throw error;
      }
    },

    async adminCreateUser(email) {
      const username = normalizeEmail(email);
      try {
        await client.send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: username,
            UserAttributes: [
              { Name: "email", Value: username },
              { Name: "email_verified", Value: "true" },
            ],
            DesiredDeliveryMediums: ["EMAIL"],
          }),
        );
      } catch (error) {
        if (errorName(error) === "UsernameExistsException") throw new UserExistsError(username);
        throw error;
      }
    },

    async adminDeleteUser(email) {
      try {
        await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: normalizeEmail(email) }));
      } catch (error) {
        if (errorName(error) === "UserNotFoundException") return;
        throw error;
      }
    },

    async signOut(tokens) {
      if (!tokens?.accessToken) return;
      try {
        await client.send(new GlobalSignOutCommand({ AccessToken: tokens.accessToken }));
      } catch (error) {
        // An expired or revoked token is already signed out; anything else must not block the local logout.
        console.warn(JSON.stringify({ level: "warn", msg: "cognito.globalSignOut.failed", error: errorName(error) ?? String(error) }));
      }
    },
  };
}
