// Screen: Manual upload: /captura/manual (pick or drop files; templates).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { canUploadTo } from "~/access";
import { accessContext, getConfig } from "~/config.server";
import { UploadPanel } from "~/features/uploads-and-jobs/upload-panel";
import { templateTexts, uploadScreenTexts } from "~/messages";
import { jobOutcomesOf, MAX_JOB_OUTCOMES } from "~/models/file-jobs.server";
import { FILE_TARGETS } from "~/models/files.fields";
import { NAV_LABELS } from "~/navigation-labels";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { templatesFor } from "~/platform/import/catalog.server";
import { uploadLimits } from "~/services/storage.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: NAV_LABELS.manualCapture }];

const errorParam = z.enum(["COD.2", "COD.3"]).nullable().catch(null);
/** `?jobs=<id>,<id>`: the jobs of the files the upload list sent (its own uploader's only); anything else, none. */
const jobsParam = z
  .string()
  .max(MAX_JOB_OUTCOMES * 25)
  .transform((value) => value.split(",").filter((id) => /^[0-9a-fA-F]{24}$/.test(id)))
  .nullable()
  .catch(null);

/**
 * /captura/manual: multi-file upload (pick or drop). Each file goes up on its own request with
 * progress, can be retried or removed (which cancels it), and once stored it is registered as a job.
 * The store decides the transport: /api/upload (local) or presigned S3 + /api/files/register.
 * A plain form post (no JavaScript) comes back here with a toast, or ?error=COD.2|COD.3.
 * `?jobs=<id>,…` adds the state of those jobs of the visitor's (the upload list follows its files until they end).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.manual", request);
  const config = getConfig();
  const limits = uploadLimits();
  const jobs = jobsParam.parse(new URL(request.url).searchParams.get("jobs"));
  return {
    jobOutcomes: jobs && jobs.length > 0 ? await jobOutcomesOf(jobs, user.email) : [],
    store: config.storage.kind === "s3" ? ("s3" as const) : ("local" as const),
    extensions: [...limits.extensions],
    maxBytes: limits.maxBytes,
    clientName: config.tenantId,
    initialError: errorParam.parse(new URL(request.url).searchParams.get("error")),
    targets: FILE_TARGETS.filter((target) => target === "data" || canUploadTo(user.type, target, accessContext())),
    templates: templatesFor(user.type).map((t) => ({
      id: t.id,
      label: t.label,
      feeds: t.feeds,
      // What the upload writes, then what becomes of invalid rows: each said once.
      modeText: `${t.writeModeText} ${t.allOrNothing ? templateTexts.allOrNothingNote : templateTexts.okNokNote}`,
    })),
  };
}

export default function ManualCapturePage() {
  const { templates, jobOutcomes, ...data } = useLoaderData<typeof loader>();
  return (
    <section className="upload-page">
      <h1>{NAV_LABELS.manualCapture}</h1>
      <p>{uploadScreenTexts.intro}</p>
      <UploadPanel {...data} />
      <section aria-labelledby="upload-templates" className="upload-templates">
        <h2 id="upload-templates">{templateTexts.title}</h2>
        <p>{templateTexts.intro}</p>
        <div className="scroll-area" tabIndex={0} role="region" aria-labelledby="upload-templates">
          <table className="upload-templates__table">
            <caption className="visually-hidden">{templateTexts.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{templateTexts.columnTemplate}</th>
                <th scope="col">{templateTexts.columnFeeds}</th>
                <th scope="col">{templateTexts.columnMode}</th>
                <th scope="col">{templateTexts.columnDownload}</th>
              </tr>
            </thead>
            <tbody>
              {templates.map((t) => (
                <tr key={t.id} data-template={t.id}>
                  <th scope="row">{t.label}</th>
                  <td>{t.feeds}</td>
                  <td>{t.modeText}</td>
                  <td>
                    <a
                      href={`/captura/manual/modelo/${t.id}`}
                      download={`modelo_${t.id}.xlsx`}
                      aria-label={templateTexts.downloadOf(t.label)}
                    >
                      {templateTexts.download}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
