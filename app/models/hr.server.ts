import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Monthly auxiliary HR figures per branch employee (spec 001 §3 "HR record"). */

export const HR_AUX = "hr_aux";

export type HrAuxRecord = {
  _id?: ObjectId;
  marca_cod: string;
  marca_desc: string;
  filial_cod: string;
  filial_nome: string;
  /** The month of the figures: first day, UTC. */
  mes_apur: Date;
  matricula: string;
  nome: string;
  /** 11 digits, valid check digits; always shown masked. */
  cpf: string;
  cargo_cod: string;
  cargo_nome: string;
  /** Leave periods as text (e.g. "03/02/2026 a 07/02/2026"), empty when none. */
  datas_afastamento: string;
  vendas_adicionais: number;
  dias_media: number;
  result_qtde_servico: number;
  result_desafio_mensal: number;
  vendas_servicos: number;
  /** At most 255 characters. */
  comentario: string;
};

/** The five numeric fields an HR editor may change. */
export const HR_NUMERIC_FIELDS = [
  "vendas_adicionais",
  "dias_media",
  "result_qtde_servico",
  "result_desafio_mensal",
  "vendas_servicos",
] as const;

export const indexes: IndexDeclaration[] = [
  { collection: HR_AUX, key: { filial_nome: 1, mes_apur: 1, nome: 1 }, options: { name: "filial_mesApur_nome" } },
];
