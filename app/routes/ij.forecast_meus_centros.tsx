// Screen: My cost centres: /ij/forecast_meus_centros (a preparer's cost centres in the open RF, and why one returned).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Breadcrumb } from "~/features/forecast/breadcrumb";
import { myCostCentres } from "~/features/forecast/cycle/board.server";
import { boardTexts } from "~/features/forecast/cycle/board-texts";
import { MyCostCentresTable } from "~/features/forecast/cycle/my-cost-centres";
import { FILTER_PATH, reviewPath } from "~/features/forecast/forecast-filter";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import "~/features/forecast/cycle/cycle.css";
import { portalToday } from "~/shared/clock.server";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: boardTexts.mineTitle }];

/**
 * /ij/forecast_meus_centros: "Meus centros de custo" as a menu entry (docs/decisions.md "Forecast cycle"), for whoever
 * may prepare a cost centre: theirs in the RF open today (as on the review's filter), with the reason of each return.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.forecast_meus_centros", request);
  const { prepared, mine } = await myCostCentres(user.email, portalToday(), reviewPath);
  const prepares = prepared.length > 0;
  return { prepares, mine, emptyText: mine ? null : prepares ? boardTexts.mineNoneInRf : boardTexts.mineNone };
}

export default function MyCostCentresPage() {
  const { mine, emptyText } = useLoaderData<typeof loader>();
  return (
    <section className="forecast-mine">
      <Breadcrumb filterHref={FILTER_PATH} current={boardTexts.mineTitle} />
      <h1>{boardTexts.mineTitle}</h1>
      {mine ? (
        <MyCostCentresTable mine={mine} intro={boardTexts.mineScreenIntro(mine.rf)} />
      ) : (
        <Alert tone="info">{emptyText}</Alert>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
