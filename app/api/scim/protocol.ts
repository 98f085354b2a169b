import { ASSIGNABLE_TIERS, type Tier } from "~/access";

/**
 * SCIM 2.0 (RFC 7643, RFC 7644) as the portal speaks it: its schema URNs, its errors, its discovery documents and the
 * groups (the four permission tiers a directory may assign). Pure.
 */

export const SCIM_PREFIX = "/scim/v2";
export const SCIM_CONTENT_TYPE = "application/scim+json";
export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** Page size when the client names none, and the most one page holds. */
export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 200;

export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue";

export function scimJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": SCIM_CONTENT_TYPE, "Cache-Control": "no-store", ...headers },
  });
}

export function scimError(status: number, detail: string, scimType?: ScimType, headers?: Record<string, string>) {
  return scimJson(
    { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail },
    status,
    headers,
  );
}

// ---------------------------------------------------------------------------------------------
// Groups: the permission tiers

/** A group's id: the tier in lower case with dashes ("user-gold"). */
export function groupIdOf(tier: Tier): string {
  return tier.toLowerCase().replace(/\s+/g, "-");
}

export function tierOfGroupId(id: string): Tier | null {
  return ASSIGNABLE_TIERS.find((tier) => groupIdOf(tier) === id) ?? null;
}

export function tierOfGroupName(name: string): Tier | null {
  return ASSIGNABLE_TIERS.find((tier) => tier.toLowerCase() === name.trim().toLowerCase()) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Discovery (RFC 7644 §4)

export function serviceProviderConfig(base: string) {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    documentationUri: `${base}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "Um token SCIM criado por um SYSTEM ADMIN em /user/tokens?scim=1.",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}${SCIM_PREFIX}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string) {
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "User",
      name: "User",
      endpoint: "/Users",
      schema: USER_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${base}${SCIM_PREFIX}/ResourceTypes/User` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      schema: GROUP_SCHEMA,
      meta: { resourceType: "ResourceType", location: `${base}${SCIM_PREFIX}/ResourceTypes/Group` },
    },
  ];
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export function schemas(base: string) {
  return [
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: USER_SCHEMA,
      name: "User",
      description: "Um usuário do portal (o e-mail é o userName).",
      attributes: [
        attribute("userName", "string", { required: true, uniqueness: "server", mutability: "immutable" }),
        attribute("displayName", "string"),
        attribute("name", "complex", { subAttributes: [attribute("formatted", "string")] }),
        attribute("active", "boolean"),
        attribute("emails", "complex", {
          multiValued: true,
          subAttributes: [attribute("value", "string"), attribute("primary", "boolean")],
        }),
        attribute("groups", "complex", {
          multiValued: true,
          mutability: "readOnly",
          subAttributes: [attribute("value", "string"), attribute("display", "string")],
        }),
      ],
      meta: { resourceType: "Schema", location: `${base}${SCIM_PREFIX}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      id: GROUP_SCHEMA,
      name: "Group",
      description: "Um tipo de permissão: ser membro dá ao usuário esse tipo.",
      attributes: [
        attribute("displayName", "string", { required: true, mutability: "readOnly", uniqueness: "server" }),
        attribute("members", "complex", {
          multiValued: true,
          subAttributes: [attribute("value", "string"), attribute("display", "string")],
        }),
      ],
      meta: { resourceType: "Schema", location: `${base}${SCIM_PREFIX}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}

/** A list answer (RFC 7644 §3.4.2). */
export function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
