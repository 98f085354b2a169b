/**
 * The texts of the header's notice links (ours), apart from the rest of texts.ts because the shell draws them on every
 * page: a page that shows no notice downloads these five and no other notice text. Gathered into noticeTexts.
 */
export const noticeHeaderTexts = {
  headerLinksLabel: "Avisos e preferências",
  headerNotices: "Avisos",
  headerNoticesWithCount: (n: number) => `Avisos (${n})`,
  headerNoticesAria: (n: number) => (n === 1 ? "Avisos: 1 não lido" : `Avisos: ${n} não lidos`),
  headerSettings: "Preferências",
} as const;
