/** The forms kit's own text (app/messages.ts gathers it as `invalidForm`). */
export const formTexts = {
  // ours: a form that could not be read (a tampered field, an unreadable body)
  invalidForm: "Não foi possível ler o formulário. Recarregue a página e tente novamente.",
};
