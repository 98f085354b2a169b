import { describe, expect, it } from "vitest";
import { excelTexts } from "~/messages";
import { ingestMessages } from "~/platform/import/ingest.server";
import { documentImportTexts, reportBundleTexts } from "~/platform/import/texts";
import { countOf } from "~/shared/excel/count-text";

describe("count texts agree in number", () => {
  it("one is singular; zero and every other number plural, with pt-BR thousands", () => {
    expect(countOf(1, "linha", "linhas")).toBe("1 linha");
    expect(countOf(0, "linha", "linhas")).toBe("0 linhas");
    expect(countOf(2, "linha", "linhas")).toBe("2 linhas");
    expect(countOf(1234, "linha", "linhas")).toBe("1.234 linhas");
  });

  it("says 1 linha OK in a job's message and while it reads", () => {
    expect(ingestMessages.done(1, 2)).toBe("1 linha OK, 2 NOK");
    expect(ingestMessages.done(2, 1)).toBe("2 linhas OK, 1 NOK");
    expect(ingestMessages.done(0, 0)).toBe("0 linhas OK, 0 NOK");
    expect(ingestMessages.working(1)).toBe("Processando: 1 linha lida");
    expect(ingestMessages.working(12000)).toBe("Processando: 12.000 linhas lidas");
  });

  it("says 1 alterado, 1 conflito, 1 recusado in the Excel round trip's summary", () => {
    expect(excelTexts.excelSummary(1, 1, 1)).toBe("1 alterado, 1 conflito, 1 recusado");
    expect(excelTexts.excelSummary(2, 0, 3)).toBe("2 alterados, 0 conflitos, 3 recusados");
  });

  it("agrees in the messages of explorer documents and report packages", () => {
    expect(documentImportTexts.indexed("Parecer", 1)).toBe('Documento indexado no Explorer: "Parecer" (1 palavra)');
    expect(documentImportTexts.replaced("Parecer", 1200)).toBe(
      'Documento substituído no Explorer: "Parecer" (1.200 palavras)',
    );
    expect(reportBundleTexts.done(1, 1)).toBe("1 relatório incluído, 1 substituído");
    expect(reportBundleTexts.rejected(1, 1, "Linha 2: x")).toBe(
      "Pacote recusado, nada foi aplicado: 1 de 1 linha com erro. Linha 2: x",
    );
  });
});
