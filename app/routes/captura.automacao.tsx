// Screen: Automation: /captura/automacao (its heading only, spec 000).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

/** Spec 000 §2: /captura/automacao is only its heading (the heading text is ours). */
const AUTOMATION_HEADING = "Captura automática";

export const meta: MetaFunction = () => [{ title: AUTOMATION_HEADING }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/captura.automacao", request);
  return null;
}

export default function AutomationCapturePage() {
  return <h1>{AUTOMATION_HEADING}</h1>;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
