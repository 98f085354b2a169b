import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import { DOMParser } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { encrypt } from "xml-encryption";

/**
 * A minimal SAML identity provider for tests: it reads and verifies our AuthnRequests the way a
 * real IdP does (HTTP-Redirect binding) and issues Responses whose assertion it signs with its
 * own key (xml-crypto, RSA-SHA256, exclusive C14N), so the portal validates real signatures.
 */

const fixtures = fileURLToPath(new URL("../fixtures/saml/", import.meta.url));
export const readFixture = (name: string) => readFileSync(path.join(fixtures, name), "utf8");

export const SP_KEY = readFixture("sp.key.pem");
export const SP_CERT = readFixture("sp.cert.pem");
export const IDP_KEY = readFixture("idp.key.pem");
export const IDP_CERT = readFixture("idp.cert.pem");
export const OTHER_IDP_KEY = readFixture("other-idp.key.pem");
export const OTHER_IDP_CERT = readFixture("other-idp.cert.pem");

export const IDP_ENTITY_ID = "https://idp.test/metadata";
export const IDP_SSO_URL = "https://idp.test/sso";

const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
export const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export type ReceivedAuthnRequest = {
  id: string;
  issuer: string;
  acsUrl: string;
  relayState: string | null;
  sigAlg: string | null;
  /** Whether Signature verifies with the SP certificate over the raw SAMLRequest&RelayState&SigAlg. */
  signatureValid: boolean;
  xml: string;
};

/** Reads an AuthnRequest URL as the IdP receives it, checking the query signature on the raw octets. */
export function receiveAuthnRequest(url: string, spCert: string = SP_CERT): ReceivedAuthnRequest {
  const parsed = new URL(url);
  const rawParts = parsed.search.replace(/^\?/, "").split("&");
  const raw = (name: string) => rawParts.find((p) => p.startsWith(`${name}=`));
  const signedOctets = ["SAMLRequest", "RelayState", "SigAlg"]
    .map(raw)
    .filter((p): p is string => p !== undefined)
    .join("&");
  const signature = parsed.searchParams.get("Signature");
  const sigAlg = parsed.searchParams.get("SigAlg");
  const signatureValid =
    !!signature &&
    sigAlg === RSA_SHA256 &&
    crypto.createVerify("RSA-SHA256").update(signedOctets).verify(spCert, signature, "base64");

  const xml = inflateRawSync(Buffer.from(parsed.searchParams.get("SAMLRequest") ?? "", "base64")).toString("utf8");
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const request = doc.documentElement!;
  const issuer =
    request.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Issuer")[0]?.textContent ?? "";
  return {
    id: request.getAttribute("ID") ?? "",
    issuer,
    acsUrl: request.getAttribute("AssertionConsumerServiceURL") ?? "",
    relayState: parsed.searchParams.get("RelayState"),
    sigAlg,
    signatureValid,
    xml,
  };
}

export type ResponseOptions = {
  /** The AuthnRequest ID answered; omitted = an unsolicited (IdP-initiated) response. */
  inResponseTo?: string;
  email: string;
  audience: string;
  acsUrl: string;
  nameIdFormat?: string;
  /** Extra attributes, e.g. { email: "x@y" } when the NameID is opaque. */
  attributes?: Record<string, string>;
  assertionId?: string;
  validForMs?: number;
  sessionNotOnOrAfter?: Date;
  signingKey?: string;
  signingCert?: string;
};

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A SAML Response with a signed assertion, as the SAMLResponse form field (base64). */
export function issueResponse(options: ResponseOptions): { samlResponse: string; xml: string; assertionId: string } {
  const now = new Date();
  const notBefore = new Date(now.getTime() - 30_000).toISOString();
  const notOnOrAfter = new Date(now.getTime() + (options.validForMs ?? 5 * 60_000)).toISOString();
  const assertionId = options.assertionId ?? `_a${crypto.randomBytes(16).toString("hex")}`;
  const responseId = `_r${crypto.randomBytes(16).toString("hex")}`;
  const inResponseTo = options.inResponseTo ? ` InResponseTo="${escapeXml(options.inResponseTo)}"` : "";
  const attributes = Object.entries(options.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escapeXml(name)}"><saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join("");
  const sessionEnd = options.sessionNotOnOrAfter
    ? ` SessionNotOnOrAfter="${options.sessionNotOnOrAfter.toISOString()}"`
    : "";

  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${IDP_ENTITY_ID}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${options.nameIdFormat ?? EMAIL_FORMAT}">${escapeXml(options.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(options.acsUrl)}"${inResponseTo}/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${assertionId}"${sessionEnd}>` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : "") +
    `</saml:Assertion>`;

  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${responseId}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${escapeXml(options.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${IDP_ENTITY_ID}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;

  const signer = new SignedXml({
    privateKey: options.signingKey ?? IDP_KEY,
    publicCert: options.signingCert ?? IDP_CERT,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: SHA256,
  });
  signer.computeSignature(response, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: "after" },
  });
  const xml = signer.getSignedXml();
  return { samlResponse: Buffer.from(xml, "utf8").toString("base64"), xml, assertionId };
}

/**
 * Replaces the (already signed) assertion of a Response with an EncryptedAssertion for the SP's
 * certificate (AES-256-GCM content key, RSA-OAEP key transport), as IdPs do when the SP metadata
 * offers an encryption certificate.
 */
export async function encryptAssertion(responseXml: string, spCert: string = SP_CERT): Promise<string> {
  const match = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(responseXml);
  if (!match) throw new Error("no assertion to encrypt");
  const rsaPub = crypto.createPublicKey(spCert).export({ type: "spki", format: "pem" }).toString();
  const encrypted = await new Promise<string>((resolve, reject) =>
    encrypt(
      match[0],
      {
        rsa_pub: rsaPub,
        pem: spCert,
        encryptionAlgorithm: "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  return responseXml.replace(match[0], `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`);
}

export const toSamlResponse = (xml: string) => Buffer.from(xml, "utf8").toString("base64");

/**
 * The POST the IdP's auto-submitting form makes to the assertion consumer; `cookie` is the Cookie header of the
 * browser that makes it (the one that started the sign-in carries its request cookie).
 */
export function postToAcs(acsUrl: string, fields: Record<string, string>, cookie?: string | null): Request {
  const headers = new Headers({
    "Content-Type": "application/x-www-form-urlencoded",
    Origin: new URL(IDP_SSO_URL).origin,
  });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(acsUrl, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}
