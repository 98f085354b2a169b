import { canUploadTo, OPERATOR_TYPE, UPLOAD_TARGET_ACCESS, type UploadTargetId, type UploadTargetRule } from "~/access";
import { accessContext } from "~/config.server";
import { type ForecastScope, forecastWriteScopeOf } from "~/models/forecast-readers.server";
import { type BranchScope, branchScopeOf } from "~/models/hr.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { uploadRightsTexts } from "./texts";

/**
 * The write rule of an upload (docs/access.md "Upload targets"): the worker asks it when it recognises a file, with the
 * uploader's rights as they stand at that moment, before it writes anything. A file its uploader may not load is
 * refused whole; the HR template also carries the uploader's branch scope down to its rows, the forecast template the
 * cost centres the uploader may write (the forecast's one rule, app/models/forecast-readers.server.ts).
 */

export type Uploader = { email: string; operator: boolean };

/** Which rows of a granted file its uploader may write: HR rows by branch, forecast rows by cost centre (null: all). */
export type UploadRowScope = { branches: BranchScope; costCentres: ForecastScope };

export type UploadGrant = { ok: true; rows: UploadRowScope } | { ok: false; message: string };

const EVERY_BRANCH: BranchScope = { kind: "all" };

/** May `uploader` load a file of `target` (whose name in messages is `label`) now? */
export async function grantUpload(uploader: Uploader, target: UploadTargetId, label: string): Promise<UploadGrant> {
  // The operator's CLI import without --user: the deployment's own shell, with OPERATOR_TYPE's rights and every row.
  const type = uploader.operator ? OPERATOR_TYPE : ((await findPermissionRecord(uploader.email))?.type ?? "");
  if (!canUploadTo(type, target, accessContext())) return { ok: false, message: uploadRightsTexts.notAllowed(label) };
  const rule: UploadTargetRule = UPLOAD_TARGET_ACCESS[target];
  const [branches, costCentres] = await Promise.all([
    rule.rows === "hrBranchScope" && !uploader.operator ? branchScopeOf(uploader.email) : EVERY_BRANCH,
    // The operator's type (SYSTEM ADMIN) writes every cost centre.
    rule.rows === "forecastCostCentres" ? forecastWriteScopeOf({ email: uploader.email, type }) : null,
  ]);
  return { ok: true, rows: { branches, costCentres } };
}
