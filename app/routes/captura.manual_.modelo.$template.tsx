// Screen: Upload template download: /captura/manual/modelo/{template} (the XLSX of one template of /captura/manual).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { templateTexts, uploadRightsTexts } from "~/messages";
import { recordedDownload } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { TEMPLATE_IDS, templateInfo, templatesFor } from "~/platform/import/catalog.server";
import { templateWorkbookResponse } from "~/platform/import/template-workbook.server";

const params = z.object({ template: z.string().max(40) });

/** The template's XLSX: sheet 1 its header and an example row, sheet 2 its columns explained. Unknown id → 404; a template its visitor may not load → 403. */
export async function loader({ request, params: raw }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/captura.manual_.modelo.$template", request);
  const parsed = params.safeParse(raw);
  const id = parsed.success ? parsed.data.template.toLowerCase() : "";
  const info = TEMPLATE_IDS.includes(id) ? templateInfo(id) : null;
  if (!info)
    throw new Response(templateTexts.unknownTemplate, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  // A template its visitor may not load is not offered (upload rights: access.ts UPLOAD_TARGET_ACCESS).
  if (!templatesFor(user.type).some((t) => t.id === info.id)) {
    throw new Response(uploadRightsTexts.notAllowed(info.label), {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  // The audit trail: a template handed out (its header and example row; no data).
  return recordedDownload(templateWorkbookResponse(info), {
    actor: user,
    dataset: info.id,
    object: { kind: "file", id: `modelo/${info.id}`, label: info.label },
    details: { via: "template" },
  });
}
