import type { ReactNode } from "react";
import { type ApiGuideFacts, GUIDE_SECTIONS, type GuideSection } from "./api-guide-facts";
import { guideTexts as t } from "./guide-texts";

/**
 * The developer guide of /api/docs: sections with anchors (GUIDE_SECTIONS), server-rendered text and examples over the
 * facts the loader reads from the code; no script of its own. The operations' reference follows it (api-operations.tsx).
 */

function Section({ id, children }: { id: GuideSection; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="api-guide__section">
      <h2 id={`${id}-title`}>{t.sections[id]}</h2>
      {children}
    </section>
  );
}

const join = (items: readonly string[]) => items.join(", ");

export function GuideContents() {
  return (
    <nav aria-label={t.contents} className="api-guide__contents">
      <h2>{t.contents}</h2>
      <ol>
        {GUIDE_SECTIONS.map((id) => (
          <li key={id}>
            <a href={`#${id}`}>{t.sections[id]}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function TokensSection({ facts }: { facts: ApiGuideFacts }) {
  const { tokens } = facts;
  return (
    <Section id="tokens">
      <p>{t.tokens.header}</p>
      <p>
        {t.tokens.createIn} <a href={tokens.path}>{t.tokens.createLink}</a> (<code>{tokens.path}</code>):
      </p>
      <ol>
        {t.tokens.steps(tokens.defaultDays, tokens.maxDays, tokens.prefix.personal).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <ul>
        {tokens.scopes.map((scope) => (
          <li key={scope}>
            <code>{scope}</code>: {t.tokens.scopes[scope]}
          </li>
        ))}
      </ul>
      <p>{t.tokens.actsAsYou(tokens.maxLive)}</p>
      <p>{t.tokens.warnings(tokens.warningDays)}</p>
    </Section>
  );
}

function uploadScript(facts: ApiGuideFacts): string {
  const { upload } = facts;
  const job = (path: string) => path.replace("{id}", "$JOB");
  return [
    `PORTAL=${facts.origin}`,
    `TOKEN=${facts.tokens.prefix.personal}...   # ${t.upload.commentTokenWrite}`,
    "",
    `# ${t.upload.commentDatasets}`,
    `curl -s -H "Authorization: Bearer $TOKEN" "$PORTAL${upload.datasets}"`,
    "",
    `# ${t.upload.commentSend}`,
    `curl -s -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: ${upload.contentTypes[0] ?? "text/csv"}" \\`,
    `  --data-binary @planejamento.csv "$PORTAL${upload.uploads}?dataset=planning_quantity&filename=planejamento.csv"`,
    "",
    `# ${t.upload.commentPoll}`,
    `curl -s -H "Authorization: Bearer $TOKEN" "$PORTAL${job(upload.job)}"`,
    "",
    `# ${t.upload.commentRefused}`,
    `curl -s -H "Authorization: Bearer $TOKEN" "$PORTAL${job(upload.refused)}" -o recusadas.csv`,
    "",
    `# ${t.upload.commentRetry}`,
    `curl -s -X POST -H "Authorization: Bearer $TOKEN" "$PORTAL${job(upload.retry)}"`,
  ].join("\n");
}

function UploadSection({ facts }: { facts: ApiGuideFacts }) {
  const { upload } = facts;
  return (
    <Section id="envio">
      <p>{t.upload.intro}</p>
      <p>{t.upload.bodyTypes(upload.contentTypes)}</p>
      <pre className="api-guide__script">{uploadScript(facts)}</pre>
      <p>{t.upload.states(upload.jobStates)}</p>
      <ul>
        {upload.outcomes.map((outcome) => (
          <li key={outcome}>
            <code>{outcome}</code>: {t.upload.outcomes[outcome]}
          </li>
        ))}
      </ul>
    </Section>
  );
}

const shownDelimiter = (d: string) => (d === "\t" ? "\\t" : d);

function CsvSection({ facts }: { facts: ApiGuideFacts }) {
  return (
    <Section id="csv">
      <p>{t.csv.intro}</p>
      <h3>{t.csv.delimitersTitle}</h3>
      <ul className="api-guide__delimiters">
        {facts.csv.delimiters.map((d) => (
          <li key={d} data-delimiter={shownDelimiter(d)}>
            <code>{shownDelimiter(d)}</code> {t.csv.delimiters[d]}
          </li>
        ))}
      </ul>
      <p>{t.csv.delimitersRule}</p>
      <h3>{t.csv.encodingsTitle}</h3>
      <ul className="api-guide__encodings">
        {facts.csv.encodings.map((e) => (
          <li key={e} data-encoding={e}>
            <code>{e}</code> {t.csv.encodings[e]}
          </li>
        ))}
      </ul>
      <p>{t.csv.encodingsRule}</p>
      <p>{t.csv.quoting}</p>
    </Section>
  );
}

function PagingSection({ facts }: { facts: ApiGuideFacts }) {
  const { paging } = facts;
  return (
    <Section id="paginacao">
      <p>{t.paging.intro}</p>
      <table className="api-guide__table">
        <thead>
          <tr>
            <th scope="col">{t.paging.operation}</th>
            <th scope="col">{t.paging.limit}</th>
          </tr>
        </thead>
        <tbody>
          {paging.operations.map((o) => (
            <tr key={`${o.method} ${o.path}`}>
              <th scope="row">
                <code>
                  {o.method} {o.path}
                </code>
              </th>
              <td>{o.limit}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {t.paging.since} <code>GET {facts.upload.jobs}</code>.
      </p>
      <p>{t.paging.dates}</p>
      <p>{t.paging.scim(paging.scimDefaultCount, paging.scimMaxCount)}</p>
    </Section>
  );
}

function ErrorsSection({ facts }: { facts: ApiGuideFacts }) {
  return (
    <Section id="erros">
      <p>{t.errors.intro}</p>
      <table className="api-guide__table">
        <thead>
          <tr>
            <th scope="col">{t.errors.type}</th>
            <th scope="col">{t.errors.status}</th>
            <th scope="col">{t.errors.meaning}</th>
          </tr>
        </thead>
        <tbody>
          {facts.problems.map((p) => {
            const [status, meaning] = t.errors.problems[p.code] ?? ["", ""];
            return (
              <tr key={p.code} id={`problema-${p.code}`}>
                <th scope="row">
                  <code>{p.type}</code>
                </th>
                <td>{status}</td>
                <td>{meaning}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Section>
  );
}

function ScimSection({ facts }: { facts: ApiGuideFacts }) {
  const { scim, tokens } = facts;
  const lives = tokens.scimLives.map((life) => (life === "never" ? t.scim.never : t.scim.days(life)));
  const groupNames = scim.groups.map((g) => g.name);
  return (
    <Section id="scim">
      <p>{t.scim.intro}</p>
      <p>
        {t.scim.baseUrl}: <code id="scim-base-url">{scim.baseUrl}</code>
      </p>
      <p>
        {t.scim.token(join(lives), tokens.warningDays)} <a href={tokens.scimPath}>{t.scim.tokenLink}</a> (
        <code>{tokens.scimPath}</code>).
      </p>
      <h3>{t.scim.groupsTitle}</h3>
      <p>{t.scim.groups}</p>
      <ul className="api-guide__groups">
        {scim.groups.map((g) => (
          <li key={g.id} data-group={g.name}>
            <strong>{g.name}</strong> (id <code>{g.id}</code>)
          </li>
        ))}
      </ul>
      <p>{t.scim.unknownGroups}</p>
      <p>{t.scim.membership(scim.defaultGroup)}</p>
      <p>{scim.ssoOnly ? t.scim.ssoOn : t.scim.ssoOff}</p>
      <p>{t.scim.deactivation}</p>
      <h3 id="scim-okta">{t.scim.okta}</h3>
      <ol>
        {t.scim.oktaSteps(scim.baseUrl, join(groupNames)).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <h3 id="scim-entra">{t.scim.entra}</h3>
      <ol>
        {t.scim.entraSteps(scim.baseUrl, join(groupNames)).map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </Section>
  );
}

export function ApiGuide({ facts }: { facts: ApiGuideFacts }) {
  return (
    <>
      <TokensSection facts={facts} />
      <UploadSection facts={facts} />
      <CsvSection facts={facts} />
      <PagingSection facts={facts} />
      <ErrorsSection facts={facts} />
      <ScimSection facts={facts} />
    </>
  );
}
