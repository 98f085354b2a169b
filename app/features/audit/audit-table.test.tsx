import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import type { AuditEntry } from "~/models/audit.server";
import { portalTimeZone } from "~/shared/dates";
import { AuditScreen, type AuditScreenProps } from "./audit-screen";
import { type AuditRow, auditDetail } from "./list.server";
import { auditTexts as t } from "./texts";

/** The audit screen's table as the server renders it: links only, so it works without JavaScript. */

const row = (n: number, outcomeCode = "ok"): AuditRow => ({
  n,
  when: "12 mar 26 10:00:00",
  who: "u1@example.com",
  actorType: "USER GOLD",
  ip: "10.0.0.1",
  event: "Entrada",
  object: "Sessão",
  objectFilter: null,
  outcome: outcomeCode === "ok" ? "Concluído" : "Recusado",
  outcomeCode,
});

const values = { from: "", to: "", user: "", event: "signIn", dataset: "", outcome: "", object: "", action: "" };
const base: AuditScreenProps = {
  values,
  error: null,
  rows: [row(12), row(11, "refused")],
  olderThan: 11,
  newerThan: null,
  paged: false,
  detail: null,
  detailMissing: false,
};

async function render(props: AuditScreenProps, search = "") {
  const element = <AuditScreen {...props} search={search} />;
  return (await renderAt(`/user/audit${search}`, element)).replaceAll("&amp;", "&");
}

describe("the audit table", () => {
  it("lists the entries in a named scrolling region, the outcome marked, each opening in detail", async () => {
    const html = await render(base, "?evento=signIn&antes=13");
    expect(html).toContain(`role="region" aria-label="${t.title}"><table class="audit-table">`);
    expect(html).toContain(`<th scope="col">${t.columnWhen}</th>`);
    expect(html).toContain('<td class="audit-outcome--refused">Recusado</td>');
    expect(html).toContain(`href="/user/audit?evento=signIn&antes=13&entrada=11"`);
    expect(html).toContain(`aria-label="${t.openEntry(11)}"`);
    // Paged by seek, with the screen's own links: no page numbers.
    expect(html).toContain(`href="/user/audit?evento=signIn&antes=11">${t.older}</a>`);
    expect(html).not.toContain("data-table__footer");
  });

  it("sets the open entry apart, and says when there is nothing to show", async () => {
    const detail = { ...row(11), whenWithZone: "", actorName: "U1", dataset: "-", details: [], prev: "0", hash: "1" };
    const open = await render({ ...base, detail });
    expect(open).toMatch(/<tr data-row-id="11" class="[^"]*" aria-current="true">/);
    const empty = await render({ ...base, rows: [], olderThan: null });
    expect(empty).toContain(`colSpan="8">${t.empty}</td>`);
  });

  it("shows an edited cell from what to what, with Abrir beside it opening the grid at its history", async () => {
    const cell = "Conta 4101001 — Salários e Ordenados, mar/27: 10.000,00 → 12.500,00";
    const href = "/ij/g?celula=4101001%3A2027-03&historico=1#celula";
    const details = [
      { label: "Alteração", value: cell, href, link: t.detailOpen },
      { label: "Alteração", value: t.moreCells(3), href: null },
    ];
    const detail = { ...row(11), whenWithZone: "", actorName: "U1", dataset: "-", details, prev: "0", hash: "1" };
    const html = await render({ ...base, detail });
    expect(html).toContain(`<td>${cell} <a aria-label="${t.detailOpen}: ${cell}" data-discover="true" href="${href}"`);
    expect(html).toContain(`>${t.detailOpen}</a></td>`);
    expect(html).toContain(`<td>${t.moreCells(3)}</td>`);
  });

  it("names an open entry by its number and its moment in the portal's zone, once, with no UTC day beside it", async () => {
    // 01:30 UTC on 01/07 is 22:30 on 30/06 in São Paulo; the entry's chain key is the UTC day.
    const entry: AuditEntry = {
      n: 42,
      day: "2026-07-01",
      seq: 3,
      at: new Date("2026-07-01T01:30:00Z"),
      actor: { email: "u1@example.com", name: "U1", type: "USER GOLD" },
      ip: null,
      event: "tokenCreated",
      object: null,
      dataset: null,
      outcome: "ok",
      details: { expiresAt: "2026-07-15T12:00:00.000Z" },
      prev: "0".repeat(64),
      hash: "1".repeat(64),
    };
    const html = await render({ ...base, detail: auditDetail(entry) });
    expect(html).toContain(`<h2 id="audit-detail-title">${t.detailTitle(42)}</h2>`);
    expect(html).toContain(`30 jun 26 22:30:00 (${portalTimeZone()})`);
    expect(html).toContain("15 jul 26 09:00:00");
    expect(html).not.toMatch(/UTC|2026-07-01|2026-07-15/);
  });
});
