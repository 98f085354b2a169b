import { plural } from "./grid-texts";

/**
 * The review grid's texts that only a browser running the page shows (spec 001; "ours"): the toolbar, the notices of
 * an edit or a paste, a refused save's ways out. Apart from gridTexts (grid-texts.ts) so that only the code loaded
 * after hydration (grid-toolbar.tsx, grid-edit-keys.ts) carries them; `forecastTexts` in texts.ts gathers them too.
 */
export const gridEditTexts = {
  save: "Salvar",
  saveCount: (n: number) => `Salvar (${n.toLocaleString("pt-BR")})`,
  undoAll: "Desfazer alterações",
  undoLast: "Desfazer última",
  history: "Histórico da célula",
  spread: "Distribuir total",
  pending: (n: number) =>
    `${plural(n, "célula alterada", "células alteradas")} ainda não ${n === 1 ? "salva" : "salvas"}.`,
  noPending: "Nenhuma alteração pendente.",
  invalidNumber: "Número inválido. Use o formato 1.234,56.",

  // ours: paste
  pasted: (pasted: number, skipped: number, outside: number) =>
    [
      `${plural(pasted, "valor colado", "valores colados")}.`,
      skipped ? `${plural(skipped, "célula ignorada", "células ignoradas")} (bloqueadas ou de grupo/total).` : "",
      outside ? `${plural(outside, "valor ficou", "valores ficaram")} fora da grade.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  pasteNotNumber: (text: string, line: number, column: number) =>
    `Nada foi colado: “${text}” (linha ${line}, coluna ${column}) não é um número no formato 1.234,56.`,
  pasteNoCell: "Clique numa célula da grade antes de colar.",
  pasteTooLarge: (max: number) => `Nada foi colado: cole no máximo ${max.toLocaleString("pt-BR")} células de uma vez.`,

  // ours: leaving with unsaved changes (review-dialogs.tsx)
  leaveTitle: "Alterações não salvas",
  leavePrompt: (n: number) =>
    `${plural(n, "célula alterada ainda não foi salva", "células alteradas ainda não foram salvas")}. Sair sem salvar?`,
  leave: "Sair sem salvar",
  stay: "Continuar editando",

  // ours: a refused save, its two ways out
  keepMine: "Manter meus valores",
  useCurrent: "Usar os valores atuais",
} as const;
