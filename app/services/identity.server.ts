import { getConfig } from "~/config.server";
import { createCognitoIdentityProvider } from "./identity/cognito.server";
import { createLocalIdentityProvider } from "./identity/local.server";
import type { IdentityProvider } from "./identity/types";

/**
 * The identity provider chosen by IDENTITY_PROVIDER: `local` (embedded default, credentials in MongoDB) or
 * `cognito` (Amazon Cognito user pool). Both fulfil IdentityProvider.
 */

export { type CognitoOptions, createCognitoIdentityProvider } from "./identity/cognito.server";
export { createLocalIdentityProvider, localProviderMessages } from "./identity/local.server";
export {
  type CompleteNewPasswordResult,
  type IdentityProvider,
  IdentityProviderError,
  type ProviderResult,
  type ProviderTokens,
  type SignInResult,
  UserExistsError,
} from "./identity/types";

let current: IdentityProvider | undefined;

export function getIdentityProvider(): IdentityProvider {
  if (current) return current;
  const config = getConfig();
  if (config.identity.provider === "cognito") {
    const { userPoolId, clientId, clientSecret } = config.identity.cognito;
    if (!userPoolId || !clientId)
      throw new Error("IDENTITY_PROVIDER=cognito needs COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID");
    current = createCognitoIdentityProvider({ region: config.awsRegion, userPoolId, clientId, clientSecret });
  } else {
    current = createLocalIdentityProvider();
  }
  return current;
}

/** Tests swap the provider (or pass undefined to go back to the configured one). */
export function setIdentityProviderForTests(provider: IdentityProvider | undefined): void {
  current = provider;
}
