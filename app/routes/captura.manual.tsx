// Screen: Manual upload: /captura/manual (pick or drop files; templates).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { NAV_LABELS } from "~/navigation";
import { requireRouteAccess } from "~/features/access/auth.server";
import { getConfig } from "~/config.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { uploadScreenTexts } from "~/messages";
import { UploadPanel } from "~/features/uploads-and-jobs/upload-panel";
import { uploadLimits } from "~/services/storage.server";

export const meta: MetaFunction = () => [{ title: NAV_LABELS.manualCapture }];

const errorParam = z.enum(["COD.2", "COD.3"]).nullable().catch(null);

/**
 * /captura/manual: multi-file upload (pick or drop). Each file goes up on its own request with
 * progress, can be retried or removed (which cancels it), and once stored it is registered as a job.
 * The store decides the transport: /api/upload (local) or presigned S3 + /api/files/register.
 * A plain form post (no JavaScript) comes back here with a toast, or ?error=COD.2|COD.3.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess("routes/captura.manual", request);
  const config = getConfig();
  const limits = uploadLimits();
  return {
    store: config.storage.kind === "s3" ? ("s3" as const) : ("local" as const),
    extensions: [...limits.extensions],
    maxBytes: limits.maxBytes,
    clientName: config.tenantId,
    initialError: errorParam.parse(new URL(request.url).searchParams.get("error")),
  };
}

export default function ManualCapturePage() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="upload-page">
      <h1>{NAV_LABELS.manualCapture}</h1>
      <p>{uploadScreenTexts.intro}</p>
      <UploadPanel {...data} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
