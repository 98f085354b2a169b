import type { HrAuxRecord } from "~/models/hr.server";
import { randomCpf } from "./brazil";
import { addDays, monthStart, type SeedContext, scaled } from "./context";
import { BRANCH_NAMES, BRANCHES, BRANDS, FIRST_NAMES, LAST_NAMES, STORE_ROLES } from "./vocabulary";

const HR_MONTHS = 13;
const COMMENTS = [
  "Colaboradora em treinamento de novos produtos.",
  "Meta de serviços superada no mês.",
  "Afastamento médico considerado na média de dias.",
  "Loja em reforma durante parte do mês.",
  "Transferida de outra filial no início do mês.",
  "Participou da campanha de Dia das Mães.",
];

function ddmmyyyy(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** ~20 branches with 8–15 employees each, one record per employee and month for the last 13 months. */
export function generateHr(ctx: SeedContext): HrAuxRecord[] {
  const random = ctx.random.fork("hr_aux");
  const branchCount = Math.min(BRANCHES.length, scaled(ctx, 20, 2));
  const months = Array.from({ length: HR_MONTHS }, (_, i) => monthStart(ctx.reference, i - HR_MONTHS + 1));
  const records: HrAuxRecord[] = [];
  let registration = 100_000;
  for (let b = 0; b < branchCount; b++) {
    const brandIndex = b % 3;
    const branch = {
      marca_cod: String(brandIndex + 1).padStart(2, "0"),
      marca_desc: BRANDS[brandIndex],
      filial_cod: String(1001 + b),
      filial_nome: BRANCH_NAMES[b],
    };
    const employees = Array.from({ length: random.int(8, 15) }, (_, e) => {
      const [cargo_cod, cargo_nome] =
        e === 0 ? STORE_ROLES[STORE_ROLES.length - 1] : random.weighted(STORE_ROLES.map((r) => [r, r[2]] as const));
      registration += random.int(1, 40);
      return {
        matricula: String(registration),
        nome: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)} ${random.pick(LAST_NAMES)}`,
        cpf: randomCpf(random),
        cargo_cod,
        cargo_nome,
        sells: cargo_cod === "101" || cargo_cod === "102" || cargo_cod === "105",
        skill: 0.6 + random.next() * 0.8,
      };
    });
    for (const mes_apur of months) {
      for (const employee of employees) {
        const away = random.chance(0.08);
        const awayStart = addDays(mes_apur, random.int(0, 20));
        const f = employee.skill * (employee.sells ? 1 : 0.15);
        records.push({
          _id: random.objectId(addDays(monthStart(mes_apur, 1), 3)),
          ...branch,
          mes_apur,
          matricula: employee.matricula,
          nome: employee.nome,
          cpf: employee.cpf,
          cargo_cod: employee.cargo_cod,
          cargo_nome: employee.cargo_nome,
          datas_afastamento: away ? `${ddmmyyyy(awayStart)} a ${ddmmyyyy(addDays(awayStart, random.int(1, 7)))}` : "",
          vendas_adicionais: random.decimal(0, 12_000 * f),
          dias_media: random.decimal(away ? 14 : 20, away ? 20 : 26, 1),
          result_qtde_servico: Math.round(random.int(0, 150) * f),
          result_desafio_mensal: random.decimal(40, 140),
          vendas_servicos: random.decimal(0, 6_000 * f),
          comentario: random.chance(0.1) ? random.pick(COMMENTS) : "",
        });
      }
    }
  }
  return records;
}
