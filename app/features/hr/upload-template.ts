import { HR_COMMENT_MAX } from "~/models/hr.fields";
import { textColumn } from "~/platform/import/column-rules";
import type { ColumnRule } from "~/platform/import/rules";
import type { DatasetTemplate } from "~/platform/import/template";
import { HR_FIGURE_RULES } from "./figures";

/**
 * The upload template of HR auxiliary figures per branch and month, with the figures' own rules (figures.ts). Recognised by its header row (every column present, any order and case; platform/import/template.ts), checked
 * row by row, and applied all or nothing: a file with any NOK row changes no business data (docs/decisions.md
 * "Uploads and jobs"). app/datasets.server.ts lists it for the import pipeline.
 */

const figure = (field: keyof typeof HR_FIGURE_RULES): ColumnRule => ({
  kind: "decimal",
  required: false,
  min: 0,
  max: HR_FIGURE_RULES[field].max,
  decimals: HR_FIGURE_RULES[field].decimals,
  excessDecimals: HR_FIGURE_RULES[field].excessDecimals,
});

export const hrTemplate: DatasetTemplate = {
  id: "hr_aux",
  label: "RH – dados auxiliares por filial e mês",
  feeds: "Auxiliar Padrão de RH (/ij/rh, /ij/rh_edit/{filial})",
  writeModeText:
    "Atualiza ou inclui por (filial_nome, mes_apur, matricula); o comentário existente é mantido quando a coluna comentario vem vazia. Valores alterados entram no histórico.",
  columns: [
    { name: "marca_cod", rule: textColumn(true, 20), unit: "código", description: "Código da marca", example: "01" },
    { name: "marca_desc", rule: textColumn(true, 100), description: "Marca", example: "Marca A" },
    {
      name: "filial_cod",
      rule: textColumn(true, 20),
      unit: "código",
      description: "Código da filial",
      example: "1001",
    },
    {
      name: "filial_nome",
      rule: textColumn(true, 100),
      description: "Nome da filial (como a tela lista)",
      example: "Loja Centro",
    },
    { name: "mes_apur", rule: { kind: "month" }, description: "Mês de apuração", example: "2026-02" },
    {
      name: "matricula",
      rule: textColumn(true, 20),
      unit: "código",
      description: "Matrícula do colaborador",
      example: "100231",
    },
    { name: "nome", rule: textColumn(true, 200), description: "Nome do colaborador", example: "Ana Souza Lima" },
    { name: "cpf", rule: { kind: "cpf" }, description: "CPF (a tela mostra mascarado)", example: "529.982.247-25" },
    { name: "cargo_cod", rule: textColumn(false, 20), unit: "código", description: "Código do cargo", example: "101" },
    { name: "cargo_nome", rule: textColumn(false, 100), description: "Cargo", example: "Consultora de Vendas" },
    {
      name: "datas_afastamento",
      rule: textColumn(false, 200),
      description: "Períodos de afastamento, em texto",
      example: "03/02/2026 a 07/02/2026",
    },
    {
      name: "vendas_adicionais",
      rule: figure("vendas_adicionais"),
      unit: "R$",
      description: "Vendas adicionais",
      example: "1.250,50",
    },
    { name: "dias_media", rule: figure("dias_media"), unit: "dias", description: "Média de dias", example: "21,5" },
    {
      name: "result_qtde_servico",
      rule: figure("result_qtde_servico"),
      unit: "quantidade",
      description: "Quantidade de serviços",
      example: 35,
    },
    {
      name: "result_desafio_mensal",
      rule: figure("result_desafio_mensal"),
      unit: "%",
      description: "Resultado do desafio mensal",
      example: "98,4",
    },
    {
      name: "vendas_servicos",
      rule: figure("vendas_servicos"),
      unit: "R$",
      description: "Vendas de serviços",
      example: "830,00",
    },
    {
      name: "comentario",
      rule: textColumn(false, HR_COMMENT_MAX),
      description: "Comentário (vazio mantém o existente)",
      example: "",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "upsert",
    keyColumns: ["filial_nome", "mes_apur", "matricula"],
    toDoc: (r) => ({
      marca_cod: r.marca_cod,
      marca_desc: r.marca_desc,
      filial_cod: r.filial_cod,
      filial_nome: r.filial_nome,
      mes_apur: r.mes_apur,
      matricula: r.matricula,
      nome: r.nome,
      cpf: r.cpf,
      cargo_cod: r.cargo_cod,
      cargo_nome: r.cargo_nome,
      datas_afastamento: r.datas_afastamento,
      vendas_adicionais: r.vendas_adicionais,
      dias_media: r.dias_media,
      result_qtde_servico: r.result_qtde_servico,
      result_desafio_mensal: r.result_desafio_mensal,
      vendas_servicos: r.vendas_servicos,
      comentario: r.comentario,
    }),
  },
};
