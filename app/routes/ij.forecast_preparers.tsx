// Screen: Forecast preparers: /ij/forecast_preparers (who prepares each cost centre's forecast).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { preparersHref } from "~/features/forecast/preparers/paths";
import {
  actionSchema,
  addPreparer,
  assignCandidates,
  formInput,
  keepOutcome,
  listPage,
  noticeOf,
  outcomeParams,
  pairsAsCandidates,
  pairValue,
  parseListState,
  preparerPeople,
  removalWarning,
  removePreparer,
  suggestFromFpa,
} from "~/features/forecast/preparers/preparers.server";
import { PreparersScreen, type ScreenError } from "~/features/forecast/preparers/preparers-screen";
import { FILE_ERROR_CODES, type FileErrorCode, fileErrorMessage } from "~/features/forecast/preparers/template.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { portalToday } from "~/shared/clock.server";
import "~/shared/ui/data-table.css";
import "~/features/forecast/forecast.css";
import "~/features/forecast/preparers/preparers.css";
import { preparersTexts } from "~/messages";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: preparersTexts.title }];

const removalSchema = z.object({ remover: z.string().min(1).max(200), usuario: z.string().min(1).max(254) });
const fileError = (code: string) =>
  FILE_ERROR_CODES.includes(code as FileErrorCode) ? fileErrorMessage(code as FileErrorCode) : null;

/**
 * The cost centres (20 a page, filtered by text and "sem responsável", all in the URL) with their preparers;
 * `?sugerir=1` adds the suggestion from the FP&A responsibles; `?remover=<cc>&usuario=<e-mail>` asks to confirm a
 * removal; `?ok=` / `?erro=` say how the last action ended.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_preparers", request);
  const url = new URL(request.url);
  const state = parseListState(url);
  const [list, notice, suggestion, people] = await Promise.all([
    listPage(state),
    noticeOf(url, user.email, fileError),
    url.searchParams.get("sugerir") === "1" ? suggestFromFpa() : null,
    preparerPeople(),
  ]);
  const removal = removalSchema.safeParse({
    remover: url.searchParams.get("remover"),
    usuario: url.searchParams.get("usuario"),
  });
  // Only a pair the page shows may be asked about: a crafted link shows nothing.
  const removing =
    removal.success &&
    list.rows.some(
      (r) => r.costCenter === removal.data.remover && r.preparers.some((p) => p.email === removal.data.usuario),
    )
      ? {
          costCenter: removal.data.remover,
          email: removal.data.usuario,
          warning: await removalWarning(removal.data.remover, removal.data.usuario, portalToday()),
        }
      : null;
  return data(
    {
      state: { ...state, page: list.page },
      ...list,
      notice,
      people,
      removing,
      suggestion: suggestion && {
        ...suggestion,
        unmatched: suggestion.unmatched.map((u) => ({ ...u, reasonText: preparersTexts.reason(u) })),
        pairs: suggestion.proposals.map((p) => pairValue(p.cost_center_concat, p.user)),
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type ActionData = { error: NonNullable<ScreenError> };

/** add, remove (confirmed), suggest (the proposals shown, each checked again): each redirects with `?ok=`. */
export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRouteAccess("routes/ij.forecast_preparers", request, "write");
  const state = parseListState(new URL(request.url));
  const refuse = (message: string, costCenter: string | null = null, choices?: { email: string; name: string }[]) =>
    data<ActionData>({ error: { message, costCenter, ...(choices ? { choices } : {}) } }, { status: 400 });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse(preparersTexts.refused.invalidForm);
  }
  const parsed = actionSchema.safeParse(formInput(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const ours =
      issue && issue.path[0] !== "intent" && issue.code !== "invalid_type" && issue.code !== "invalid_string";
    const costCenter = form.get("cost_center_concat");
    return refuse(
      ours ? issue.message : preparersTexts.refused.invalidForm,
      typeof costCenter === "string" ? costCenter : null,
    );
  }
  const input = parsed.data;
  switch (input.intent) {
    case "add": {
      const outcome = await addPreparer(input.cost_center_concat, input.user, admin.email);
      if (!outcome.ok) return refuse(outcome.message, input.cost_center_concat, outcome.choices);
      return redirect(preparersHref(state, { ok: "added", cc: outcome.costCenter, email: outcome.email }));
    }
    case "remove": {
      // Without the confirmation (a plain form, a replayed link): ask first.
      if (input.confirm !== "1")
        return redirect(preparersHref(state, { remover: input.cost_center_concat, usuario: input.user }));
      const outcome = await removePreparer(input.cost_center_concat, input.user, admin.email);
      if (!outcome.ok) return refuse(outcome.message);
      return redirect(
        preparersHref(state, { ok: "removed", cc: input.cost_center_concat, email: input.user.toLowerCase() }),
      );
    }
    case "suggest": {
      const outcome = await assignCandidates(pairsAsCandidates(input.par), admin.email, "suggestion");
      const kept = await keepOutcome(admin.email, outcome);
      return redirect(preparersHref(state, outcomeParams("suggested", outcome, kept)));
    }
  }
}

export default function ForecastPreparersPage() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  return (
    <PreparersScreen data={loaderData} error={actionData?.error ?? null} busy={navigation.state === "submitting"} />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
