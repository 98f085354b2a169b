import crypto from "node:crypto";
import { HttpResponse, http } from "msw";

/**
 * A fake Amazon Cognito user pool behind msw, speaking the service's JSON 1.1 protocol:
 * POST https://cognito-idp.{region}.amazonaws.com/ with `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>`
 * and `Content-Type: application/x-amz-json-1.1`; errors are HTTP 400 with `{"__type": "...Exception", "message": "..."}`.
 * Messages are the ones Cognito documents/returns for each error.
 */

export const TEST_COGNITO = {
  region: "us-east-1",
  userPoolId: "us-east-1_TestPool1",
  clientId: "3n4b5urk1ft4fl3mg5e62d9ado",
} as const;

export type FakeCognitoUser = {
  username: string;
  password: string;
  status: "CONFIRMED" | "FORCE_CHANGE_PASSWORD";
  resetCode?: string;
};

export type RecordedCall = { target: string; body: Record<string, unknown>; headers: Record<string, string> };

/**
 * An error the pool answers for an operation until cleared. `afterApplying`: the operation takes effect first
 * (e.g. AdminCreateUser keeps the user, then the code delivery fails), the worst case for the caller.
 */
export type InjectedFailure = { type: string; message: string; afterApplying?: boolean };

/** Cognito's documented errors with the messages the service sends. */
export const COGNITO_ERRORS = {
  tooManyRequests: { type: "TooManyRequestsException", message: "Rate exceeded" },
  limitExceeded: { type: "LimitExceededException", message: "Attempt limit exceeded, please try after some time." },
  authFlowNotEnabled: {
    type: "InvalidParameterException",
    message: "USER_PASSWORD_AUTH flow not enabled for this client",
  },
  missingAttribute: { type: "InvalidParameterException", message: "Invalid attributes given, name is missing" },
  invalidEmail: { type: "InvalidParameterException", message: "Invalid email address format." },
  codeDelivery: { type: "CodeDeliveryFailureException", message: "Unable to deliver message to the email address." },
} as const satisfies Record<string, InjectedFailure>;

/** The pool's state, which tests arrange and inspect. */
export class FakeUserPool {
  readonly users = new Map<string, FakeCognitoUser>();
  readonly challengeSessions = new Map<string, string>();
  readonly accessTokens = new Map<string, string>();
  readonly calls: RecordedCall[] = [];
  /** Operation name (e.g. "InitiateAuth") → the error it answers. */
  readonly failures = new Map<string, InjectedFailure>();
  /** Password rule of the fake pool: Cognito's default (8+, upper, lower, digit, symbol). */
  passwordOk = (p: string) =>
    p.length >= 8 && /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p) && /[^A-Za-z0-9]/.test(p);

  addUser(username: string, password: string, status: FakeCognitoUser["status"] = "CONFIRMED") {
    this.users.set(username, { username, password, status });
  }

  /** Makes `operation` answer `failure` until `clearFailures()`. */
  failWith(operation: string, failure: InjectedFailure) {
    this.failures.set(operation, failure);
  }

  clearFailures() {
    this.failures.clear();
  }

  callsTo(operation: string): RecordedCall[] {
    return this.calls.filter((c) => c.target === `AWSCognitoIdentityProviderService.${operation}`);
  }
}

const JSON_11 = "application/x-amz-json-1.1";

function ok(body: object) {
  return HttpResponse.json(body, {
    status: 200,
    headers: { "Content-Type": JSON_11, "x-amzn-RequestId": crypto.randomUUID() },
  });
}

export function cognitoError(type: string, message: string, status = 400) {
  return HttpResponse.json(
    { __type: type, message },
    {
      status,
      headers: { "Content-Type": JSON_11, "x-amzn-RequestId": crypto.randomUUID(), "x-amzn-ErrorType": `${type}:` },
    },
  );
}

function tokens() {
  const accessToken = `access.${crypto.randomBytes(12).toString("base64url")}`;
  return {
    AccessToken: accessToken,
    ExpiresIn: 3600,
    TokenType: "Bearer",
    RefreshToken: `refresh.${crypto.randomBytes(12).toString("base64url")}`,
    IdToken: `id.${crypto.randomBytes(12).toString("base64url")}`,
  };
}

/** The request fields the operations below read (the SDK sends those of its operation). */
type CognitoRequest = {
  AuthFlow: string;
  AuthParameters?: { USERNAME?: string; PASSWORD?: string };
  Session: string;
  ChallengeResponses?: { USERNAME?: string; NEW_PASSWORD?: string };
  Username: string;
  ConfirmationCode: string;
  Password: string;
  UserPoolId: string;
  UserAttributes?: { Name: string; Value: string }[];
  AccessToken: string;
};

const INVALID_PASSWORD = "Password does not conform to policy: Password must have uppercase characters";

/** Handlers answering for the pool on TEST_COGNITO.region (or `region`). */
export function cognitoHandlers(pool: FakeUserPool, region: string = TEST_COGNITO.region) {
  return [
    http.post(`https://cognito-idp.${region}.amazonaws.com/`, async ({ request }) => {
      const target = request.headers.get("x-amz-target") ?? "";
      const contentType = request.headers.get("content-type") ?? "";
      const body = (await request.json()) as CognitoRequest;
      pool.calls.push({ target, body, headers: Object.fromEntries(request.headers.entries()) });
      if (!contentType.startsWith(JSON_11))
        return cognitoError("SerializationException", `unexpected content-type ${contentType}`);
      const operation = target.replace(/^AWSCognitoIdentityProviderService\./, "");
      const failure = pool.failures.get(operation);
      if (failure && !failure.afterApplying) return cognitoError(failure.type, failure.message);
      const answer = answerFor(operation, body);
      return failure && answer.status === 200 ? cognitoError(failure.type, failure.message) : answer;
    }),
  ];

  function answerFor(operation: string, body: CognitoRequest) {
    switch (operation) {
      case "InitiateAuth": {
        if (body.AuthFlow !== "USER_PASSWORD_AUTH")
          return cognitoError("InvalidParameterException", "Initiate Auth method not supported.");
        const username = body.AuthParameters?.USERNAME as string;
        const user = pool.users.get(username);
        if (!user) return cognitoError("UserNotFoundException", "User does not exist.");
        if (user.password !== body.AuthParameters?.PASSWORD)
          return cognitoError("NotAuthorizedException", "Incorrect username or password.");
        if (user.status === "FORCE_CHANGE_PASSWORD") {
          const session = crypto.randomBytes(48).toString("base64");
          pool.challengeSessions.set(session, username);
          return ok({
            ChallengeName: "NEW_PASSWORD_REQUIRED",
            Session: session,
            ChallengeParameters: {
              USER_ID_FOR_SRP: username,
              requiredAttributes: "[]",
              userAttributes: JSON.stringify({ email: username }),
            },
          });
        }
        const t = tokens();
        pool.accessTokens.set(t.AccessToken, username);
        return ok({ AuthenticationResult: t, ChallengeParameters: {} });
      }
      case "RespondToAuthChallenge": {
        const username = pool.challengeSessions.get(body.Session);
        if (!username || username !== body.ChallengeResponses?.USERNAME) {
          return cognitoError("NotAuthorizedException", "Invalid session for the user, session is expired.");
        }
        const newPassword = body.ChallengeResponses?.NEW_PASSWORD as string;
        if (!pool.passwordOk(newPassword)) return cognitoError("InvalidPasswordException", INVALID_PASSWORD);
        pool.challengeSessions.delete(body.Session);
        const user = pool.users.get(username)!;
        user.password = newPassword;
        user.status = "CONFIRMED";
        const t = tokens();
        pool.accessTokens.set(t.AccessToken, username);
        return ok({ AuthenticationResult: t, ChallengeParameters: {} });
      }
      case "ForgotPassword": {
        const user = pool.users.get(body.Username);
        if (!user) return cognitoError("UserNotFoundException", "Username/client id combination not found.");
        user.resetCode = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
        return ok({
          CodeDeliveryDetails: {
            Destination: `${user.username[0]}***@***`,
            DeliveryMedium: "EMAIL",
            AttributeName: "email",
          },
        });
      }
      case "ConfirmForgotPassword": {
        const user = pool.users.get(body.Username);
        if (!user) return cognitoError("UserNotFoundException", "Username/client id combination not found.");
        if (!user.resetCode)
          return cognitoError("ExpiredCodeException", "Invalid code provided, please request a code again.");
        if (user.resetCode !== body.ConfirmationCode)
          return cognitoError("CodeMismatchException", "Invalid verification code provided, please try again.");
        if (!pool.passwordOk(body.Password)) return cognitoError("InvalidPasswordException", INVALID_PASSWORD);
        user.password = body.Password;
        user.resetCode = undefined;
        return ok({});
      }
      case "AdminCreateUser": {
        if (body.UserPoolId !== TEST_COGNITO.userPoolId)
          return cognitoError("ResourceNotFoundException", `User pool ${body.UserPoolId} does not exist.`);
        if (pool.users.has(body.Username))
          return cognitoError("UsernameExistsException", "User account already exists");
        const temporary = `Tmp${crypto.randomBytes(4).toString("hex")}!1`;
        pool.addUser(body.Username, temporary, "FORCE_CHANGE_PASSWORD");
        const now = Date.now() / 1000;
        return ok({
          User: {
            Username: body.Username,
            Attributes: [{ Name: "sub", Value: crypto.randomUUID() }, ...(body.UserAttributes ?? [])],
            UserCreateDate: now,
            UserLastModifiedDate: now,
            Enabled: true,
            UserStatus: "FORCE_CHANGE_PASSWORD",
          },
        });
      }
      case "AdminDeleteUser": {
        if (!pool.users.delete(body.Username)) return cognitoError("UserNotFoundException", "User does not exist.");
        return ok({});
      }
      case "GlobalSignOut": {
        if (!pool.accessTokens.has(body.AccessToken))
          return cognitoError("NotAuthorizedException", "Access Token has been revoked");
        const username = pool.accessTokens.get(body.AccessToken);
        for (const [token, user] of pool.accessTokens) if (user === username) pool.accessTokens.delete(token);
        return ok({});
      }
      default:
        return cognitoError("UnknownOperationException", `unsupported operation ${operation}`);
    }
  }
}
