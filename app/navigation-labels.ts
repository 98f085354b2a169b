import { jobTexts } from "~/features/uploads-and-jobs/texts";

/**
 * Side-navigation labels; the group and item names are the spec's (§2), the capture items ours. A module of their own:
 * pages head themselves with these labels, and app/navigation.ts (the menus' rules) stays out of their scripts.
 */
export const NAV_LABELS = {
  intelligentJourney: "Intelligent Journey",
  dataJourney: "Data Journey",
  executedJobs: "Executed Jobs",
  financialStatement: "Financial Statement",
  reports: "Relatorios",
  explorer: "Explorer",
  repositoryMaster: "Repository Master",
  /** /repo/format, the file list of the repository (spec 000 §2 "Repository"); named as its page. */
  repositoryFiles: jobTexts.filesTitle,
  planning: "Planejamento",
  manualCapture: "Captura manual",
  processing: "Processamento",
  executedJobsList: "Jobs executados",
  // The forecast cycle's screens (ours: the spec's menu has none of them).
  forecastReview: "Revisão do forecast",
  forecastMine: "Meus centros de custo",
  forecastStatus: "Situação do forecast",
  forecastPreparers: "Responsáveis pelo forecast",
  forecastProfiles: "Perfis de sazonalidade",
} as const;
