import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import { grantPermission, PRODUCT_HEADER, productLine, useTempDataDir } from "#test/upload-fixtures";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { listNotices } from "~/models/notices.server";
import { savePreferences } from "~/models/user-preferences.server";
import { CLI_UPLOADER, importCommand } from "./cli-import";

/** Job notices via the operator's `portal import`: --user is told as the uploader; without it, only those on call. */

process.env.LOG_LEVEL = "warn";
const testDb = useTestDatabase();
const data = useTempDataDir();

const UPLOADER = "cli-gold@example.com";
const ON_CALL = "cli-admin@example.com";
const titlesOf = async (email: string) => (await listNotices(email, 1)).rows.map((n) => n.title);

beforeAll(async () => {
  resetConfigForTests();
  const db = await testDb.db();
  await applyIndexes(db);
  await grantPermission(db, UPLOADER, "USER GOLD");
  await grantPermission(db, ON_CALL, "SYSTEM ADMIN");
  await savePreferences(ON_CALL, { onCallFailures: true });
});

describe("portal import: notices of its job", () => {
  it("tells --user as the uploader; without --user only those on call", async () => {
    const file = path.join(data.dir, "cli-produtos.csv");
    await fs.writeFile(file, [PRODUCT_HEADER, productLine(1, true), productLine(2)].join("\n"));
    const print = () => undefined;
    const title = "Envio concluído com linhas recusadas: cli-produtos.csv";

    expect((await importCommand([file, "--user", UPLOADER], print, { progressIntervalMs: 20 })).code).toBe(1);
    expect(await titlesOf(UPLOADER)).toEqual([title]);
    expect(await titlesOf(ON_CALL)).toEqual([title]);

    await importCommand([file], print, { progressIntervalMs: 20 });
    expect(await titlesOf(UPLOADER)).toHaveLength(1);
    expect(await titlesOf(ON_CALL)).toEqual([title, title]);
    expect(await titlesOf(CLI_UPLOADER)).toHaveLength(0);
  });
});
