/**
 * The words of "Salvar visão" on each screen that keeps views, apart from the rest of the feature's texts (texts.ts
 * spreads them in): the form is on pages that load little JavaScript, the review grid among them.
 */
export const saveFormTexts = {
  saveLegend: "Salvar visão",
  summary: "Visões desta tela",
  nameLabel: "Nome da visão",
  save: "Salvar visão",
  myViews: "Minhas visões",
};

export const VIEWS_PATH = "/user/visoes";
