import { filesByKeys, filesNamed } from "~/models/files.server";
import { getBasePage, type MasterDataColumn } from "~/models/master-data-queries.server";
import { portalDownloadLink } from "~/services/storage/download-link.server";
import { objectUrlPath, parseObjectUrlPath } from "~/services/storage.server";

/**
 * The files the master-data tables name, by the name they were uploaded under: an imported row's `urlPath` is the
 * stored object's key (e.g. `2026/11/16efd6cd-….csv`), which nobody recognises; the upload record keeps the original
 * name. Rows whose path has no upload record (the demo seed's readable paths) keep their path.
 */

export type NamedFile = { name: string; href: string | null; key: string };

/** The upload record of each path, one indexed read per bucket (a page names one or a few files). */
export async function namedFiles(urlPaths: Iterable<string>): Promise<Map<string, NamedFile>> {
  const byBucket = new Map<string, Set<string>>();
  for (const urlPath of new Set(urlPaths)) {
    if (!urlPath) continue;
    const { bucket, key } = parseObjectUrlPath(urlPath);
    if (!byBucket.has(bucket)) byBucket.set(bucket, new Set());
    byBucket.get(bucket)!.add(key);
  }
  const found = new Map<string, NamedFile>();
  const lists = await Promise.all([...byBucket].map(([bucket, keys]) => filesByKeys(bucket, [...keys])));
  for (const file of lists.flat()) {
    const urlPath = objectUrlPath(file.bucket, file.originalFile);
    let href: string | null = null;
    try {
      href = portalDownloadLink(file.bucket, file.originalFile, file.originalName);
    } catch {
      // a key outside the local store: named, but not offered for download
    }
    found.set(urlPath, { name: file.originalName, href, key: urlPath });
  }
  return found;
}

/** The paths the file filter stands for: the text as a path, and the paths of the files uploaded under that name. */
export async function fileFilterPaths(file: string): Promise<string[]> {
  const named = await filesNamed(file);
  return [file, ...named.map((f) => objectUrlPath(f.bucket, f.originalFile))];
}

/**
 * One page of a master-data base for its screen: narrowed to a file by its path or by the name it was uploaded
 * under, each row's file named by that name (with its download link and, as a tooltip, its key).
 */
export async function loadMasterDataTable(
  collection: string,
  page: number,
  columns: readonly MasterDataColumn[] | undefined,
  file: string | undefined,
) {
  const files = file ? await fileFilterPaths(file) : undefined;
  const read = await getBasePage(collection, page, columns, { files });
  const names = await namedFiles(read.rows.map((r) => r.cells.urlPath ?? ""));
  return {
    rows: read.rows.map((r) => ({ ...r, file: r.cells.urlPath ? (names.get(r.cells.urlPath) ?? null) : null })),
    count: read.count,
    page: read.page,
    pageSize: read.pageSize,
  };
}
