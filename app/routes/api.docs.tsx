// Screen: API documentation: /api/docs, the OpenAPI document of /api/v1 for people (public).
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { openApiDocument } from "~/api/v1/openapi.server";
import { apiTexts } from "~/messages";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/features/api-tokens/api-docs.css";

export const meta: MetaFunction = () => [{ title: apiTexts.docsTitle }];

type Parameter = { name: string; in: string; required: boolean; description?: string; schema: unknown };
type OperationDoc = {
  operationId: string;
  summary: string;
  description: string;
  parameters: Parameter[];
  requestBody?: { description: string; content: Record<string, unknown> };
  responses: Record<string, { description: string; content: Record<string, { example?: unknown }> }>;
};

/** Every operation of the document, in its order, with its parameters, answers and examples. */
export function loader() {
  const document = openApiDocument() as { paths: Record<string, Record<string, OperationDoc>> };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      id: operation.operationId,
      summary: operation.summary,
      description: operation.description,
      parameters: operation.parameters.map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required,
        description: p.description ?? "",
        schema: JSON.stringify(p.schema),
      })),
      body: operation.requestBody
        ? `${operation.requestBody.description} (${Object.keys(operation.requestBody.content).join(", ")})`
        : null,
      responses: Object.entries(operation.responses).map(([status, response]) => {
        const [type, content] = Object.entries(response.content)[0] ?? ["", {}];
        const example = content.example;
        return {
          status,
          description: response.description,
          type,
          example:
            example === undefined ? "" : typeof example === "string" ? example : JSON.stringify(example, null, 2),
        };
      }),
    })),
  );
  return { operations };
}

export default function ApiDocs() {
  const { operations } = useLoaderData<typeof loader>();
  return (
    <article className="api-docs" aria-labelledby="api-docs-title">
      <h1 id="api-docs-title">{apiTexts.docsTitle}</h1>
      <p>
        {apiTexts.docsIntro} <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
      </p>
      <p>{apiTexts.docsAuth}</p>
      <nav aria-label={apiTexts.docsTitle}>
        <ul>
          {operations.map((o) => (
            <li key={o.id}>
              <a href={`#${o.id}`}>
                <code>
                  {o.method} {o.path}
                </code>{" "}
                — {o.summary}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {operations.map((o) => (
        <section key={o.id} id={o.id} aria-labelledby={`${o.id}-title`}>
          <h2 id={`${o.id}-title`}>
            <code>
              {o.method} {o.path}
            </code>{" "}
            {o.summary}
          </h2>
          <p className="api-docs__description">{o.description}</p>
          {o.parameters.length > 0 ? (
            <>
              <h3>{apiTexts.docsParameters}</h3>
              <ul>
                {o.parameters.map((p) => (
                  <li key={`${p.in}-${p.name}`}>
                    <code>{p.name}</code> ({p.in}
                    {p.required ? ", obrigatório" : ""}): {p.description} <code>{p.schema}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {o.body ? <p>Corpo: {o.body}</p> : null}
          <h3>{apiTexts.docsResponses}</h3>
          <ul>
            {o.responses.map((r) => (
              <li key={r.status}>
                <strong>{r.status}</strong> {r.description} <code>{r.type}</code>
                {r.example ? (
                  <details>
                    <summary>{apiTexts.docsExample}</summary>
                    <pre>{r.example}</pre>
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
