import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Generated and uploaded reports (spec 001 §3 "Report record"). */

export const REPORTS = "reports";

export const REPORT_ORIGINS = ["automatico", "manual"] as const;
export type ReportOrigin = (typeof REPORT_ORIGINS)[number];

export type ReportRecord = {
  _id?: ObjectId;
  name: string;
  origin: ReportOrigin;
  /** The competency month (first day, UTC). */
  dateRef: Date;
  createdDate: Date;
  statusChangeDate: Date;
  user: string;
  originalFile: string;
  originalName: string;
  bucket: string;
  /** Online-viewer address; null when the report has none (the viewer action is then disabled). */
  url: string | null;
};

export const indexes: IndexDeclaration[] = [
  { collection: REPORTS, key: { statusChangeDate: -1, _id: -1 }, options: { name: "statusChangeDate_desc" } },
  { collection: REPORTS, key: { origin: 1, statusChangeDate: -1 }, options: { name: "origin_statusChangeDate" } },
  { collection: REPORTS, key: { origin: 1, dateRef: 1, statusChangeDate: -1 }, options: { name: "origin_dateRef_statusChangeDate" } },
];
