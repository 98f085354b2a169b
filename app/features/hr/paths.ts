import type { Month } from "~/shared/months";
import { monthRangeParams } from "./month-range";

/** Addresses of the HR screens (pure: the picker, the grid and the tests build them the same way). */

export const HR_PICKER_PATH = "/ij/rh";

/** The HR grid's Excel round trip: its exports name it in their hidden `_portal:rh?…` column. */
export const HR_DATASET = "rh";

/** /ij/rh_edit/{filial}?mes_inicio=…&mes_fim=… — the branch name is one path segment, encoded. */
/** The longest branch name a path may carry (longer: not found, nothing read). */
export const FILIAL_MAX = 200;

export function hrGridPath(filial: string, range?: { from: Month | string; to: Month | string }): string {
  const path = `/ij/rh_edit/${encodeURIComponent(filial)}`;
  return range ? `${path}?${monthRangeParams(range)}` : path;
}

/** The comments of the branch's rows (their own page): the commented rows, or one row's thread. */
export function hrThreadPath(filial: string, id?: string): string {
  const path = `${hrGridPath(filial)}/comentarios`;
  return id ? `${path}?${new URLSearchParams({ registro: id })}` : path;
}

/** The picker with a branch and a month range already chosen (the grid's "Filtering" breadcrumb). */
export function hrPickerPath(filial?: string, range?: { from: Month | string; to: Month | string }): string {
  const params = new URLSearchParams();
  if (filial) params.set("filial", filial);
  if (range) for (const [key, value] of monthRangeParams(range)) params.set(key, value);
  const query = params.toString();
  return query ? `${HR_PICKER_PATH}?${query}` : HR_PICKER_PATH;
}

/** Branch-name matching for the picker's search box: case and accents do not matter. */
export function foldForMatch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export function branchMatches(name: string, query: string): boolean {
  const q = foldForMatch(query);
  return q === "" || foldForMatch(name).includes(q);
}
