import type { ApiOperationDoc } from "./api-guide-facts";
import { guideTexts } from "./guide-texts";
import { apiTexts } from "./texts";

/** The reference of /api/docs: each operation of the OpenAPI document with its parameters, answers and examples. */
export function ApiOperations({ operations }: { operations: ApiOperationDoc[] }) {
  return (
    <section id="operacoes" aria-labelledby="operacoes-title" className="api-guide__section">
      <h2 id="operacoes-title">{guideTexts.sections.operacoes}</h2>
      <p>
        {guideTexts.operations} <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
      </p>
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
      {operations.map((o) => (
        <section key={o.id} id={o.id} aria-labelledby={`${o.id}-title`}>
          <h3 id={`${o.id}-title`}>
            <code>
              {o.method} {o.path}
            </code>{" "}
            {o.summary}
          </h3>
          <p className="api-docs__description">{o.description}</p>
          {o.parameters.length > 0 ? (
            <>
              <h4>{apiTexts.docsParameters}</h4>
              <ul>
                {o.parameters.map((p) => (
                  <li key={`${p.in}-${p.name}`}>
                    <code>{p.name}</code> ({p.in}
                    {p.required ? `, ${apiTexts.docsRequired}` : ""}): {p.description} <code>{p.schema}</code>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {o.body ? (
            <p>
              {apiTexts.docsBody}: {o.body}
            </p>
          ) : null}
          <h4>{apiTexts.docsResponses}</h4>
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
    </section>
  );
}
