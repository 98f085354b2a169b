// Screen: Master data, product: /repo/master-data (Ok and NOK bases).
import { type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, useLoaderData, useSubmit } from "@remix-run/react";
import { z } from "zod";
import { masterDataExcelPanel, productTargetOf } from "~/features/repository-and-master-data/excel-routes.server";
import { loadMasterDataTable } from "~/features/repository-and-master-data/file-names.server";
import {
  FileFilter,
  MASTER_DATA_TITLES,
  MasterDataSectionsNav,
  MasterDataTable,
} from "~/features/repository-and-master-data/sections-nav";
import { masterDataTexts, messages } from "~/messages";
import {
  columnsOf,
  FILE_PARAM,
  fileParam,
  findCatalogueEntry,
  listMasterDataCollections,
  MASTER_DATA_PAGE_SIZE,
  pageParam,
} from "~/models/master-data-queries.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { ExcelPanel } from "~/shared/excel/panel";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import { useHydrated } from "~/shared/ui/use-hydrated";

export const meta: MetaFunction = () => [{ title: MASTER_DATA_TITLES.repositoryMaster }];

/**
 * The URL state: `base` (anything but "nok" is Ok), `collection` (no value or an empty one is the base's
 * first; any other value is checked against the catalogue below, and an unknown one is a 404, not a
 * fallback) and `page` (page 1 unless a positive integer).
 */
const searchParamsSchema = z.object({
  base: z.enum(["ok", "nok"]).catch("ok"),
  collection: z
    .string()
    .optional()
    .transform((name) => name || undefined),
  page: pageParam,
  file: fileParam,
});

/** /repo/master-data: Base Ok / Base NOK, the collection dropdown and one page of the chosen base. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/repo.master-data._index", request);
  const url = new URL(request.url);
  const {
    base,
    collection: requested,
    page,
    file,
  } = searchParamsSchema.parse({
    base: url.searchParams.get("base") ?? undefined,
    collection: url.searchParams.get("collection") ?? undefined,
    page: url.searchParams.get("page") ?? undefined,
    file: url.searchParams.get(FILE_PARAM) ?? undefined,
  });

  const catalogue = await listMasterDataCollections();
  // Checked against the catalogue before anything is read: an unknown name is a 404.
  const chosen = requested ? findCatalogueEntry(catalogue, requested) : undefined;
  const options = catalogue.filter((c) => (c.collection_ok === 1) === (base === "ok"));
  if (chosen && !options.includes(chosen)) {
    // The Ok/NOK switch changed while the old collection was still selected: show the new base's first.
    throw redirect(`${url.pathname}?base=${base}`);
  }
  const entry = chosen ?? options[0];
  const columns = entry ? columnsOf(entry.fields) : [];
  const [table, excel] = entry
    ? await Promise.all([
        loadMasterDataTable(entry.collection_name, page, columns.length > 0 ? columns : undefined, file),
        // The same base, columns and file filter as the table (the export route resolves them the same way).
        masterDataExcelPanel(productTargetOf(entry, file), "routes/repo.master-data._index", user, url),
      ])
    : [{ rows: [], count: 0, page: 1, pageSize: MASTER_DATA_PAGE_SIZE }, null];
  return {
    base,
    collections: options.map((c) => ({ name: c.collection_name, label: c.label_name })),
    collection: entry?.collection_name ?? null,
    collectionLabel: entry?.label_name ?? "",
    file: file ?? null,
    table: { columns, rows: table.rows, count: table.count, page: table.page, pageSize: table.pageSize },
    excel,
  };
}

export default function MasterDataPage() {
  const data = useLoaderData<typeof loader>();
  const submit = useSubmit();
  const hydrated = useHydrated();

  return (
    <section className="master-data">
      <h1>{MASTER_DATA_TITLES.repositoryMaster}</h1>
      <MasterDataSectionsNav current="product" />
      <Form
        method="get"
        className="master-data__filters"
        key={`${data.base}:${data.collection ?? ""}`}
        onChange={(event) => {
          const target = event.target as HTMLInputElement | HTMLSelectElement;
          // A new base starts at its own first collection; a new collection at page 1.
          if (target.name === "base") submit({ base: target.value });
          else submit(event.currentTarget);
        }}
      >
        <fieldset className="master-data__base">
          <legend className="visually-hidden">{masterDataTexts.masterDataBaseLegend}</legend>
          <label>
            <input type="radio" name="base" value="ok" defaultChecked={data.base === "ok"} /> {messages.baseOk}
          </label>
          <label>
            <input type="radio" name="base" value="nok" defaultChecked={data.base === "nok"} /> {messages.baseNok}
          </label>
        </fieldset>
        {data.collections.length > 0 ? (
          <div className="field">
            <label htmlFor="master-data-collection">{masterDataTexts.masterDataCollectionLabel}</label>
            <select id="master-data-collection" name="collection" defaultValue={data.collection ?? undefined}>
              {data.collections.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {hydrated ? null : (
          <button type="submit" className="button button--secondary">
            {masterDataTexts.masterDataApply}
          </button>
        )}
      </Form>
      <FileFilter file={data.file} keep={{ base: data.base, collection: data.collection }} />
      {data.excel && (data.table.count > 0 || data.excel.report) ? <ExcelPanel excel={data.excel} /> : null}
      <MasterDataTable data={data.table} caption={data.collectionLabel || MASTER_DATA_TITLES.repositoryMaster} />
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
