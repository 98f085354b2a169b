/**
 * Texts of the stored seasonality profiles (ours; docs/decisions.md "Spreads that follow their base"): the screen
 * /ij/forecast_perfis_sazonalidade and the answers of its form.
 */

export const MONTH_NAMES = [
  "Janeiro",
  "Fevereiro",
  "Março",
  "Abril",
  "Maio",
  "Junho",
  "Julho",
  "Agosto",
  "Setembro",
  "Outubro",
  "Novembro",
  "Dezembro",
] as const;

export const MONTH_SHORT = [
  "Jan",
  "Fev",
  "Mar",
  "Abr",
  "Mai",
  "Jun",
  "Jul",
  "Ago",
  "Set",
  "Out",
  "Nov",
  "Dez",
] as const;

export const profileTexts = {
  title: "Perfis de sazonalidade",
  intro:
    "Um perfil dá a forma do ano: um peso por mês, de janeiro a dezembro. Em “Distribuir total” da revisão do forecast, “Como o perfil de sazonalidade” reparte o total pelos meses abertos na proporção dos pesos desses meses.",
  empty: "Nenhum perfil cadastrado ainda.",
  listCaption: "Perfis cadastrados",
  name: "Nome",
  updated: "Atualizado",
  updatedBy: (name: string, when: string) => `${when} por ${name}`,
  actions: "Ações",
  edit: "Editar",
  editOf: (name: string) => `Editar ${name}`,
  remove: "Excluir",
  removeOf: (name: string) => `Excluir ${name}`,
  newTitle: "Novo perfil",
  editTitle: (name: string) => `Editar “${name}”`,
  nameLabel: "Nome do perfil",
  nameHint: "Até 80 caracteres; não pode repetir o nome de outro perfil.",
  weightsLegend: "Pesos por mês",
  weightsHint: "Números de 0 a 1.000.000, com até 4 casas decimais (ex.: 1 ou 1,5); ao menos um mês maior que zero.",
  share: (percent: string) => `${percent} do ano`,
  save: "Salvar perfil",
  cancel: "Cancelar",
  confirmRemove: (name: string) => `Excluir o perfil “${name}”? Distribuições já salvas não mudam.`,
  confirmRemoveButton: "Excluir perfil",
  // answers
  created: (name: string) => `Perfil “${name}” criado.`,
  saved: (name: string) => `Perfil “${name}” salvo.`,
  removed: (name: string) => `Perfil “${name}” excluído.`,
  nameInvalid: "Informe o nome do perfil, com até 80 caracteres.",
  weightInvalid: (month: string) =>
    `Informe o peso de ${month} como número de 0 a 1.000.000, com até 4 casas decimais (ex.: 1 ou 1,5).`,
  weightsZero: "Ao menos um mês precisa de peso maior que zero.",
  nameTaken: (name: string) => `Já existe um perfil com o nome “${name}”.`,
  full: (max: number) => `O portal guarda até ${max} perfis: exclua um antes de criar outro.`,
  notFound: "Perfil não encontrado: ele pode ter sido excluído.",
  changed: "O perfil mudou desde que você o abriu: confira os valores atuais e salve de novo.",
  invalidForm: "Não foi possível ler o formulário. Recarregue a página e tente de novo.",
} as const;
