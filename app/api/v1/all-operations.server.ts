import { AUDIT_OPERATION, GRID_OPERATIONS, PLANNING_OPERATION } from "./grid-operations.server";
import type { Operation } from "./operation";
import { JOB_OPERATIONS } from "./operations.server";

/** Every operation of /api/v1, in the order the document lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...JOB_OPERATIONS,
  ...GRID_OPERATIONS,
  PLANNING_OPERATION,
  AUDIT_OPERATION,
];
