// Screen: API documentation: /api/docs, the developer guide (tokens, upload and poll, CSV, paging, errors, SCIM) and the reference of /api/v1 (public).
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { apiGuideFacts, apiOperationsReference } from "~/api/guide.server";
import { ApiGuide, GuideContents } from "~/features/api-tokens/api-guide";
import { ApiOperations } from "~/features/api-tokens/api-operations";
import { guideTexts } from "~/features/api-tokens/guide-texts";
import { apiTexts } from "~/messages";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/api-tokens/api-docs.css";

export const meta: MetaFunction = () => [{ title: apiTexts.docsTitle }];

/** The guide's facts, read from the code that does what it says (app/api/guide.server.ts), and the operations. */
export function loader() {
  return { facts: apiGuideFacts(), operations: apiOperationsReference() };
}

export default function ApiDocs() {
  const { facts, operations } = useLoaderData<typeof loader>();
  return (
    <article className="api-docs" aria-labelledby="api-docs-title">
      <h1 id="api-docs-title">{apiTexts.docsTitle}</h1>
      <p>{guideTexts.intro}</p>
      <GuideContents />
      <ApiGuide facts={facts} />
      <ApiOperations operations={operations} />
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
