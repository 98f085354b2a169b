import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { threadLinkTexts } from "~/platform/comments/thread-link";
import { parseMonthKey } from "~/shared/months";
import { AuxGrid, type GridRow } from "./aux-grid";
import { hrTexts } from "./texts";

const row: GridRow = {
  id: "r1",
  filial_nome: "Loja Paulista",
  mes_apur: parseMonthKey("2026-05")!,
  nome: "Renata Souza",
  cpf: "***.***.247-25",
  comentario: "ok",
  vendas_adicionais: 12,
  dias_media: 1.5,
  result_qtde_servico: 3,
  result_desafio_mensal: 0.5,
  vendas_servicos: 1000,
};

async function render(canEdit: boolean, marks: Record<string, { comments: number; resolved: boolean }> = {}) {
  const element = (
    <AuxGrid
      rows={[row]}
      caption="Auxiliar"
      canEdit={canEdit}
      edits={{}}
      serverErrors={{}}
      commentHref={(id) => `/ij/rh_edit/x?comentario=${id}`}
      onEdit={() => undefined}
      threads={{ marks, href: (id) => `/ij/rh_edit/x/comentarios?registro=${id}` }}
    />
  );
  return renderAt("/ij/rh_edit/x", element);
}

describe("the Auxiliar Padrão grid", () => {
  it("shows the name first, pinned to the left edge, then the branch, month, CPF, the five figures and the comment", async () => {
    const html = await render(true);
    const headers = [...html.matchAll(/<th scope="col"[^>]*data-column="([^"]+)"[^>]*>([^<]*)<\/th>/g)];
    expect(headers.map((h) => h[1])).toEqual([
      "nome",
      "filial_nome",
      "mes_apur",
      "cpf",
      "vendas_adicionais",
      "dias_media",
      "result_qtde_servico",
      "result_desafio_mensal",
      "vendas_servicos",
      "comentario",
      "conversa",
    ]);
    expect(headers.map((h) => h[2])).toEqual(headers.map((h) => hrTexts.columns[h[1] as keyof typeof hrTexts.columns]));
    expect(html).toContain('<th scope="col" style="position:sticky;left:0;z-index:3" data-column="nome">');
    expect(html).toContain(
      '<th scope="row" class="hr-grid__name" style="position:sticky;left:0;z-index:1">Renata Souza</th>',
    );
    // The cells follow the headers' order: the name's row header, then the branch.
    expect(html).toMatch(/Renata Souza<\/th><td>Loja Paulista<\/td>/);
  });

  it("links each row to its comment thread, for readers too, counting its comments", async () => {
    for (const canEdit of [true, false]) {
      const start = await render(canEdit);
      expect(start).toContain(`href="/ij/rh_edit/x/comentarios?registro=r1"`);
      expect(start).toContain(`>${threadLinkTexts.start}</a>`);
    }
    const open = await render(false, { r1: { comments: 2, resolved: false } });
    expect(open).toContain(`class="thread-link is-open"`);
    expect(open).toContain(`>${threadLinkTexts.count(2)}</a>`);
    const resolved = await render(false, { r1: { comments: 2, resolved: true } });
    expect(resolved).not.toContain("is-open");
  });

  it("gives readers disabled inputs and no comment link", async () => {
    const html = await render(false);
    expect(html).toContain("disabled");
    expect(html).not.toContain(hrTexts.editComment);
  });
});
