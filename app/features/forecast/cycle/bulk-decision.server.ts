import { z } from "zod";
import { COST_CENTER_CONCAT_MAX } from "~/models/forecast.fields";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import type { CalendarDate } from "~/shared/months";
import { resolveReview } from "../review.server";
import { bulkTexts } from "./bulk-texts";
import { takeCycleAction } from "./cycle.server";
import { COMMENT_MAX } from "./rules";

/**
 * Approving or returning several submitted cost centres of one RF from the status board (docs/decisions.md "Forecast
 * cycle"). Each is decided on its own, through the review's own action (takeCycleAction): the reviewers' rule, the
 * submission the reviewer read (the box's value carries its instant), one notice and one audit entry each. The
 * answer names those decided and those refused, with the reason.
 */

/** The most boxes one decision takes: a board page holds fewer. A box's value is board-links.ts decisionValue. */
export const BULK_MAX = 200;

const boxSchema = z
  .string()
  .max(COST_CENTER_CONCAT_MAX + 20)
  .regex(/^\d{1,15}\|[^\p{Cc}\p{Cs}]+$/u)
  .transform((value) => {
    const bar = value.indexOf("|");
    return { read: new Date(Number(value.slice(0, bar))), cc: value.slice(bar + 1) };
  })
  .refine((box) => box.cc.length <= COST_CENTER_CONCAT_MAX && Number.isFinite(box.read.getTime()));

const formSchema = z.object({
  intent: z.enum(["approve", "return"]),
  rf: z.string().min(1).max(20),
  comment: z.string().max(20_000),
  boxes: z.array(z.string()).min(1).max(BULK_MAX),
});

export type BulkOutcome =
  | { ok: true; message: string; decided: string[]; refused: { cc: string; reason: string }[] }
  | { ok: false; status: 400; message: string };

export type DecisionForm = {
  intent: "approve" | "return";
  rf: string;
  comment: string;
  /** Each cost centre ticked (once, in the order ticked) → the submission's instant its box carried. */
  boxes: Map<string, Date>;
};

/** The board's decision form, read and checked (the refusal's message otherwise). Nothing is read from the database. */
export function readDecisionForm(form: FormData): { ok: true; form: DecisionForm } | { ok: false; message: string } {
  const boxes = form.getAll("cc");
  if (boxes.length === 0) return { ok: false, message: bulkTexts.noneSelected };
  if (boxes.length > BULK_MAX) return { ok: false, message: bulkTexts.tooMany(BULK_MAX) };
  const parsed = formSchema.safeParse({
    intent: form.get("intent"),
    rf: form.get("rf"),
    comment: form.get("comment") ?? "",
    boxes,
  });
  if (!parsed.success) return { ok: false, message: bulkTexts.invalid };
  const comment = parsed.data.comment.trim();
  if (parsed.data.intent === "return" && comment.length === 0) return { ok: false, message: bulkTexts.commentRequired };
  if (comment.length > COMMENT_MAX) return { ok: false, message: bulkTexts.invalid };
  const unique = new Map<string, Date>();
  for (const box of parsed.data.boxes) {
    const read = boxSchema.safeParse(box);
    if (!read.success) return { ok: false, message: bulkTexts.invalid };
    if (!unique.has(read.data.cc)) unique.set(read.data.cc, read.data.read);
  }
  return { ok: true, form: { intent: parsed.data.intent, rf: parsed.data.rf, comment, boxes: unique } };
}

export async function decideMany(
  form: FormData,
  user: AuthenticatedUser,
  today: CalendarDate,
  now = () => new Date(),
): Promise<BulkOutcome> {
  const read = readDecisionForm(form);
  if (!read.ok) return { ok: false, status: 400, message: read.message };
  const { intent, rf, comment, boxes } = read.form;
  const action = new URLSearchParams({ intent, comment });
  const decided: string[] = [];
  const refused: { cc: string; reason: string }[] = [];
  // One at a time, in the order ticked: each decision is the review's own, with its notice and audit entry.
  for (const [cc, submittedAt] of boxes) {
    const lookup = await resolveReview({ rf, cost_center_concat: cc }, user);
    if (!lookup.ok) {
      refused.push({ cc, reason: lookup.status === 404 ? bulkTexts.unknown : lookup.message });
      continue;
    }
    const outcome = await takeCycleAction(action, lookup.review, user, today, now(), submittedAt);
    if (outcome.ok) decided.push(cc);
    else refused.push({ cc, reason: "message" in outcome ? outcome.message : bulkTexts.invalid });
  }
  return { ok: true, message: bulkTexts.summary(intent, decided.length, refused.length), decided, refused };
}
