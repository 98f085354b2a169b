import { describe, expect, it } from "vitest";
import { useEnv } from "#test/env";
import { renderAt } from "#test/static-render";
import { ASSIGNABLE_TIERS } from "~/access";
import { GUIDE_SECTIONS } from "~/features/api-tokens/api-guide-facts";
import { guideTexts } from "~/features/api-tokens/guide-texts";
import { SCIM_TOKEN_LIVES } from "~/features/api-tokens/lifetimes";
import { CSV_DELIMITERS, CSV_ENCODINGS, csvEncodingOf, sniffDelimiter } from "~/platform/import/readers.server";
import ApiDocs, { loader } from "~/routes/api.docs";
import { formatDateTime } from "~/shared/dates";
import { apiGuideFacts } from "./guide.server";
import { PROBLEM_CODES } from "./problem.server";
import { tierOfGroupId, tierOfGroupName } from "./scim/protocol";
import { openApiDocument } from "./v1/openapi.server";
import { JOB_OUTCOMES } from "./v1/operations.server";

/**
 * /api/docs, the developer guide: its sections and anchors, and its facts read from the code that does what they say,
 * so the guide cannot drift from the portal: the CSV reader's own delimiters and encodings (each one really picked
 * by the reader), SCIM's own groups (each one really found by SCIM), the API's own paths, page parameters and problem
 * types, and the absolute SCIM base URL from APP_ORIGIN.
 */

useEnv({ APP_ORIGIN: "https://portal.example.com", SSO_MODE: "none" });

const page = () => renderAt("/api/docs", [{ id: "docs", path: "*", loader: () => loader(), Component: ApiDocs }]);
const decode = (html: string) =>
  html.replaceAll("&quot;", '"').replaceAll("&#x27;", "'").replaceAll("&amp;", "&").replaceAll("&lt;", "<");

describe("/api/docs, the developer guide", () => {
  it("has a section with an anchor for tokens, upload and poll, CSV, paging, errors, SCIM and the operations", async () => {
    const html = await page();
    for (const id of GUIDE_SECTIONS) {
      expect(html).toContain(`<section id="${id}"`);
      expect(html).toContain(`<a href="#${id}">${guideTexts.sections[id]}</a>`);
    }
    expect(html).toContain('id="scim-okta"');
    expect(html).toContain('id="scim-entra"');
    expect(html).not.toContain("docs/api.md");
    // Tokens are made on the tokens screen; SCIM tokens on its SCIM view.
    expect(html).toContain('<a href="/user/tokens">');
    expect(html).toContain('<a href="/user/tokens?scim=1">');
  });

  it("says the API's dates are ISO 8601 UTC, and its example reads as the portal shows that instant", async () => {
    const instant = new Date("2026-11-29T05:04:09.000Z");
    expect(decode(await page())).toContain(guideTexts.paging.dates);
    expect(guideTexts.paging.dates).toContain(`(${instant.toISOString()})`);
    expect(guideTexts.paging.dates).toContain(`(${formatDateTime(instant)})`);
  });

  it("lists exactly the delimiters and encodings the CSV reader uses, each one the reader really picks", async () => {
    const facts = apiGuideFacts();
    expect(facts.csv.delimiters).toEqual([...CSV_DELIMITERS]);
    expect(facts.csv.encodings).toEqual([...CSV_ENCODINGS]);
    for (const d of CSV_DELIMITERS) expect(sniffDelimiter(["sku", "mes", "quantidade"].join(d))).toBe(d);
    const samples: Record<(typeof CSV_ENCODINGS)[number], Buffer> = {
      "utf-8": Buffer.from("descrição;valor\r\n", "utf8"),
      "windows-1252": Buffer.from("descri\xe7\xe3o;valor\r\n", "latin1"),
      "utf-16le": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("descrição\tvalor\r\n", "utf16le")]),
    };
    for (const e of CSV_ENCODINGS) expect(csvEncodingOf(samples[e]).encoding).toBe(e);
    const html = await page();
    for (const d of CSV_DELIMITERS) expect(html).toContain(`data-delimiter="${d === "\t" ? "\\t" : d}"`);
    for (const e of CSV_ENCODINGS) expect(html).toContain(`data-encoding="${e}"`);
    expect(html.match(/data-delimiter=/g)).toHaveLength(CSV_DELIMITERS.length);
    expect(html.match(/data-encoding=/g)).toHaveLength(CSV_ENCODINGS.length);
  });

  it("lists exactly SCIM's groups, each found by its name and id, and says unknown groups are not created", async () => {
    const facts = apiGuideFacts();
    expect(facts.scim.groups.map((g) => g.name)).toEqual([...ASSIGNABLE_TIERS]);
    for (const g of facts.scim.groups) {
      expect(tierOfGroupName(g.name)).toBe(g.name);
      expect(tierOfGroupId(g.id)).toBe(g.name);
    }
    const html = decode(await page());
    for (const g of facts.scim.groups) expect(html).toContain(`data-group="${g.name}"`);
    expect(html.match(/data-group=/g)).toHaveLength(ASSIGNABLE_TIERS.length);
    expect(html).toContain(guideTexts.scim.unknownGroups);
    expect(html).toContain(guideTexts.scim.ssoOff);
  });

  it("shows the absolute SCIM base URL from APP_ORIGIN, never from the request's Host", async () => {
    const html = await renderAt("/api/docs", [{ id: "docs", path: "*", loader: () => loader(), Component: ApiDocs }], {
      headers: { Host: "evil.example.net" },
    });
    expect(html).toContain('<code id="scim-base-url">https://portal.example.com/scim/v2</code>');
    expect(html).not.toContain("evil.example.net");
  });

  it("uses the API's real paths in curl, and lists its paged operations, problem types and job outcomes", async () => {
    const facts = apiGuideFacts();
    const paths = Object.keys((openApiDocument() as { paths: Record<string, unknown> }).paths);
    const html = decode(await page());
    for (const path of [facts.upload.datasets, facts.upload.uploads, facts.upload.job, facts.upload.refused]) {
      expect(paths).toContain(path);
      expect(html).toContain(`$PORTAL${path.replace("{id}", "$JOB")}`);
    }
    expect(html).toContain("PORTAL=https://portal.example.com");
    const paged = Object.entries(
      (openApiDocument() as { paths: Record<string, Record<string, { parameters: { name: string }[] }>> }).paths,
    ).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.parameters.some((p) => p.name === "cursor"))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(paged.length).toBeGreaterThan(3);
    expect(facts.paging.operations.map((o) => `${o.method} ${o.path}`)).toEqual(paged);
    for (const op of facts.paging.operations) expect(op.limit).toMatch(/^Itens por página, de 1 a \d+/);
    expect(Object.keys(guideTexts.errors.problems).sort()).toEqual([...PROBLEM_CODES].sort());
    for (const code of PROBLEM_CODES) expect(html).toContain(`id="problema-${code}"`);
    expect(Object.keys(guideTexts.upload.outcomes).sort()).toEqual([...JOB_OUTCOMES].sort());
    expect(facts.tokens.scimLives).toEqual([...SCIM_TOKEN_LIVES]);
  });
});
