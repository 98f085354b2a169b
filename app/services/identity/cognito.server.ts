import { createHmac } from "node:crypto";
import type {
  AuthenticationResultType,
  CognitoIdentityProviderClient,
} from "@aws-sdk/client-cognito-identity-provider";
import { normalizeEmail } from "~/models/users.server";
import {
  type IdentityProvider,
  IdentityProviderError,
  type ProviderResult,
  type ProviderTokens,
  UserExistsError,
} from "./types";

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
  return error && typeof error === "object" && "name" in error && typeof error.name === "string"
    ? error.name
    : undefined;
}

function errorMessage(error: unknown, fallback: string): string {
  const message = error instanceof Error ? error.message : undefined;
  return message?.trim() ? message : fallback;
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

/** Cognito's input limits (API reference): a Username of 1-128 characters, a challenge Session of 20-2048. */
const COGNITO_LIMITS = { username: 128, sessionMin: 20, sessionMax: 2048 } as const;

/** Cognito refused the request for its rate: the user tries again later. */
const THROTTLING = new Set(["TooManyRequestsException", "LimitExceededException"]);

/**
 * InvalidParameterException after our own bounds usually means the pool or app client is set up differently
 * from what the portal needs (e.g. USER_PASSWORD_AUTH not enabled): the user gets a message, operations a log line.
 */
function logRefusedParameter(operation: string, error: unknown): void {
  const detail = error instanceof Error ? error.message.slice(0, 200) : String(error);
  console.warn(
    JSON.stringify({ level: "warn", msg: "cognito.invalidParameter", operation, error: errorName(error), detail }),
  );
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

/** The AWS SDK is loaded on first use: a deployment with local accounts (the default) never loads it. */
let sdkLoading: Promise<typeof import("@aws-sdk/client-cognito-identity-provider")> | undefined;
const cognitoSdk = () => (sdkLoading ??= import("@aws-sdk/client-cognito-identity-provider"));

export function createCognitoIdentityProvider(options: CognitoOptions): IdentityProvider {
  let clientLoading: Promise<CognitoIdentityProviderClient> | undefined;
  const client = () =>
    (clientLoading ??= options.client
      ? Promise.resolve(options.client)
      : cognitoSdk().then((sdk) => new sdk.CognitoIdentityProviderClient({ region: options.region })));
  const { clientId, userPoolId, clientSecret } = options;

  /** SECRET_HASH = Base64(HMAC_SHA256(client secret, username + client id)), only with a client secret. */
  const secretHash = (username: string) =>
    clientSecret
      ? createHmac("sha256", clientSecret)
          .update(username + clientId)
          .digest("base64")
      : undefined;

  async function adminDeleteUser(email: string): Promise<void> {
    try {
      await (await client()).send(
        new (await cognitoSdk()).AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: normalizeEmail(email) }),
      );
    } catch (error) {
      if (errorName(error) === "UserNotFoundException") return;
      throw error;
    }
  }

  return {
    kind: "cognito",

    async signIn(email, password) {
      const username = normalizeEmail(email);
      // No pool account can have a longer name: answer like a wrong password instead of asking Cognito.
      if (username.length > COGNITO_LIMITS.username) return { kind: "invalid" };
      const hash = secretHash(username);
      try {
        const out = await (await client()).send(
          new (await cognitoSdk()).InitiateAuthCommand({
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
        if (name && THROTTLING.has(name)) return { kind: "throttled" };
        if (name === "InvalidParameterException") {
          logRefusedParameter("InitiateAuth", error);
          return { kind: "invalid" };
        }
        throw error;
      }
    },

    async completeNewPassword(email, challengeSession, newPassword) {
      const username = normalizeEmail(email);
      // A session Cognito cannot have issued is a forged or damaged challenge: sign in again.
      if (
        username.length > COGNITO_LIMITS.username ||
        challengeSession.length < COGNITO_LIMITS.sessionMin ||
        challengeSession.length > COGNITO_LIMITS.sessionMax
      ) {
        return { kind: "invalid" };
      }
      const hash = secretHash(username);
      try {
        const out = await (await client()).send(
          new (await cognitoSdk()).RespondToAuthChallengeCommand({
            ChallengeName: "NEW_PASSWORD_REQUIRED",
            ClientId: clientId,
            Session: challengeSession,
            ChallengeResponses: {
              USERNAME: username,
              NEW_PASSWORD: newPassword,
              ...(hash ? { SECRET_HASH: hash } : {}),
            },
          }),
        );
        return { kind: "ok", tokens: tokensOf(out.AuthenticationResult) };
      } catch (error) {
        const name = errorName(error);
        if (name === "InvalidPasswordException") return { kind: "error", message: errorMessage(error, name) };
        // An expired or reused challenge session comes back as NotAuthorized / CodeMismatch ("Invalid session").
        if (
          name === "NotAuthorizedException" ||
          name === "CodeMismatchException" ||
          name === "ExpiredCodeException" ||
          name === "UserNotFoundException"
        ) {
          return { kind: "invalid" };
        }
        if (name && THROTTLING.has(name)) return { kind: "throttled" };
        // The password already passed our stricter policy, so the refused parameter is the challenge itself.
        if (name === "InvalidParameterException") {
          logRefusedParameter("RespondToAuthChallenge", error);
          return { kind: "invalid" };
        }
        throw error;
      }
    },

    async forgotPassword(email): Promise<ProviderResult> {
      const username = normalizeEmail(email);
      const hash = secretHash(username);
      try {
        await (await client()).send(
          new (await cognitoSdk()).ForgotPasswordCommand({
            ClientId: clientId,
            Username: username,
            ...(hash ? { SecretHash: hash } : {}),
          }),
        );
        return { kind: "ok" };
      } catch (error) {
        const name = errorName(error);
        // Unknown users (or users without a verified e-mail) answer like known ones: no enumeration.
        if (
          name === "UserNotFoundException" ||
          name === "InvalidParameterException" ||
          name === "NotAuthorizedException"
        )
          return { kind: "ok" };
        if (name && USER_FACING.has(name)) return { kind: "error", message: errorMessage(error, name) };
        throw error;
      }
    },

    async confirmForgotPassword(email, code, newPassword): Promise<ProviderResult> {
      const username = normalizeEmail(email);
      const hash = secretHash(username);
      try {
        await (await client()).send(
          new (await cognitoSdk()).ConfirmForgotPasswordCommand({
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
        if (name && (USER_FACING.has(name) || name === "InvalidParameterException"))
          return { kind: "error", message: errorMessage(error, name) };
        if (name === "UserNotFoundException" || name === "NotAuthorizedException") {
          return { kind: "error", message: "Invalid verification code provided, please try again." };
        }
        throw error;
      }
    },

    async adminCreateUser(email) {
      const username = normalizeEmail(email);
      if (username.length > COGNITO_LIMITS.username) throw new IdentityProviderError("invalidInput");
      try {
        await (await client()).send(
          new (await cognitoSdk()).AdminCreateUserCommand({
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
        const name = errorName(error);
        if (name === "UsernameExistsException") throw new UserExistsError(username);
        if (name && THROTTLING.has(name)) throw new IdentityProviderError("throttled", { cause: error });
        if (name === "InvalidParameterException") {
          logRefusedParameter("AdminCreateUser", error);
          throw new IdentityProviderError("invalidInput", { cause: error });
        }
        if (name === "CodeDeliveryFailureException") {
          // The user did not exist before (that is UsernameExists), so whatever Cognito kept is ours to remove.
          await adminDeleteUser(username).catch(() => undefined);
          throw new IdentityProviderError("mailFailed", { cause: error });
        }
        throw error;
      }
    },

    adminDeleteUser,

    async signOut(tokens) {
      if (!tokens?.accessToken) return;
      try {
        await (await client()).send(new (await cognitoSdk()).GlobalSignOutCommand({ AccessToken: tokens.accessToken }));
      } catch (error) {
        // An expired or revoked token is already signed out; anything else must not block the local logout.
        console.warn(
          JSON.stringify({
            level: "warn",
            msg: "cognito.globalSignOut.failed",
            error: errorName(error) ?? String(error),
          }),
        );
      }
    },
  };
}
