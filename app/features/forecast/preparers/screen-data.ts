import type { Proposal, Unmatched } from "./matching";
import type { ListState } from "./paths";

/** What the preparers' screen shows (its route's loader answers it). */
export type ScreenData = {
  state: ListState;
  rows: {
    costCenter: string;
    inForecast: boolean;
    preparers: { email: string; known: boolean; name: string; type: string; mayPrepare: boolean }[];
  }[];
  total: number;
  page: number;
  pageCount: number;
  anyCostCenter: boolean;
  notice: {
    tone: "success" | "error" | "warning";
    title?: string;
    text: string;
    refused: { rows: { line: number; costCenter: string; email: string; reason: string }[]; more: number } | null;
  } | null;
  /** Who may be made a preparer: the add forms' choices (a list the browser filters by name or e-mail). */
  people: { email: string; name: string }[];
  /** The removal asked about, with a warning when it would leave a cost centre Enviado without a preparer. */
  removing: { costCenter: string; email: string; warning: string | null } | null;
  suggestion: {
    responsibles: number;
    proposals: Proposal[];
    already: number;
    unmatched: (Unmatched & { reasonText: string })[];
    pairs: string[];
  } | null;
};

/** A refused action's message, beside its cost centre; `choices`: the people a name matched, to pick one from. */
export type ScreenError = {
  message: string;
  costCenter: string | null;
  choices?: { email: string; name: string }[];
} | null;
