import type { CsvDelimiter, CsvEncoding } from "~/platform/import/readers.server";

/**
 * What the developer guide on /api/docs states about the portal, read from the code that does it (app/api/guide.server
 * .ts builds it: the CSV reader's delimiters and encodings, the SCIM groups, the API's paths, problem types and page
 * parameters), so the guide cannot say something the portal does not do.
 */
export type ApiGuideFacts = {
  /** The portal's public origin (APP_ORIGIN), for the examples. */
  origin: string;
  tokens: {
    path: string;
    scimPath: string;
    scopes: string[];
    prefix: { personal: string; scim: string };
    defaultDays: number;
    maxDays: number;
    scimLives: string[];
    maxLive: number;
    warningDays: number[];
  };
  upload: {
    datasets: string;
    uploads: string;
    job: string;
    refused: string;
    retry: string;
    jobs: string;
    contentTypes: string[];
    jobStates: string[];
    outcomes: string[];
  };
  csv: { delimiters: CsvDelimiter[]; encodings: CsvEncoding[] };
  paging: {
    operations: Array<{ method: string; path: string; limit: string }>;
    scimDefaultCount: number;
    scimMaxCount: number;
  };
  problems: Array<{ code: string; type: string }>;
  scim: {
    baseUrl: string;
    groups: Array<{ name: string; id: string }>;
    defaultGroup: string;
    /** Single sign-on is on: users SCIM creates sign in by SSO only (no temporary password). */
    ssoOnly: boolean;
  };
};

/** The anchors of the guide's sections, in order. */
export const GUIDE_SECTIONS = ["tokens", "envio", "csv", "paginacao", "erros", "scim", "operacoes"] as const;
export type GuideSection = (typeof GUIDE_SECTIONS)[number];

/** One operation of the reference, as the OpenAPI document describes it. */
export type ApiOperationDoc = {
  method: string;
  path: string;
  id: string;
  summary: string;
  description: string;
  parameters: Array<{ name: string; in: string; required: boolean; description: string; schema: string }>;
  body: string | null;
  responses: Array<{ status: string; description: string; type: string; example: string }>;
};
