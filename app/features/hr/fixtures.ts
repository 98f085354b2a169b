import { type Db, ObjectId } from "mongodb";
import { defaultMonth } from "~/features/hr/month-range";
import { HR_AUX, type HrAuxRecord } from "~/models/hr.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { addMonths, type Month, monthStartDate } from "~/shared/months";

/** Branches and people of the HR tests: known CPFs (to prove they never leave unmasked), two months. */

export const BRANCH_A = "Loja São Paulo - Paulista";
export const BRANCH_B = "Loja Recife - Boa Viagem";
/** The default month (previous calendar month) and the one before it. */
export const LAST_MONTH = defaultMonth(new Date(), false);
export const MONTH_BEFORE = addMonths(LAST_MONTH, -1);

const PEOPLE: Array<{ branch: string; matricula: string; nome: string; cpf: string; cargo: string }> = [
  {
    branch: BRANCH_A,
    matricula: "100201",
    nome: "Renata Souza Lima",
    cpf: "52998224725",
    cargo: "Consultora de Beleza",
  },
  { branch: BRANCH_A, matricula: "100202", nome: "Ana Paula Costa", cpf: "11144477735", cargo: "Gerente de Loja" },
  { branch: BRANCH_A, matricula: "100203", nome: "Marcos Vieira", cpf: "39053344705", cargo: "Caixa" },
  { branch: BRANCH_B, matricula: "200301", nome: "Joana Prado", cpf: "93541134780", cargo: "Vendedor(a)" },
];
export const RAW_CPFS = PEOPLE.map((p) => p.cpf);

export function hrRecord(
  branch: string,
  month: Month,
  person: (typeof PEOPLE)[number],
  i: number,
): HrAuxRecord & { _id: ObjectId } {
  return {
    _id: new ObjectId(),
    marca_cod: "01",
    marca_desc: "Marca",
    filial_cod: branch === BRANCH_A ? "1001" : "1002",
    filial_nome: branch,
    mes_apur: monthStartDate(month),
    matricula: person.matricula,
    nome: person.nome,
    cpf: person.cpf,
    cargo_cod: "101",
    cargo_nome: person.cargo,
    datas_afastamento: "",
    vendas_adicionais: 1000 + i,
    dias_media: 21.5,
    result_qtde_servico: 10 + i,
    result_desafio_mensal: 95.25,
    vendas_servicos: 500.5,
    comentario: i === 0 ? "Comentário inicial" : "",
  };
}

/** Writes the people of both branches for MONTH_BEFORE and LAST_MONTH (inserted out of order, to test the sort). */
export async function insertHrRecords(db: Db): Promise<Array<HrAuxRecord & { _id: ObjectId }>> {
  const records = [LAST_MONTH, MONTH_BEFORE].flatMap((month) => PEOPLE.map((p, i) => hrRecord(p.branch, month, p, i)));
  await db.collection(HR_AUX).insertMany(records);
  return records;
}

/** A permission record for `email` (the HR scope reads its `stores`). */
export async function setPermission(db: Db, email: string, type: string, stores: string[] = []) {
  await db
    .collection(USER_PERMISSIONS)
    .updateOne(
      { user: email },
      { $set: { user: email, name: email, type, stores, createdAt: new Date() } },
      { upsert: true },
    );
}
