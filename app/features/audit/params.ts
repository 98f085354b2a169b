/** The audit screen's URL parameters (the filter form is a GET): one list for the loader, the links and the export. */
export const AUDIT_PARAMS = {
  from: "de",
  to: "ate",
  user: "usuario",
  event: "evento",
  dataset: "base",
  outcome: "resultado",
  object: "objeto",
  action: "acao",
  before: "antes",
  after: "depois",
  entry: "entrada",
} as const;

export const AUDIT_PATH = "/user/audit";
export const AUDIT_EXPORT_PATH = "/user/audit/export";
/** The export's format parameter: csv or xlsx. */
export const AUDIT_FORMAT_PARAM = "formato";
