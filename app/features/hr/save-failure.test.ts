import { beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "#test/db";
import { figureInputName } from "~/features/hr/edits";
import { hrGridPath } from "~/features/hr/paths";
import { applyIndexes } from "~/models/all-indexes.server";
import { action } from "~/routes/ij.rh_edit.$filial";
import { BRANCH_A, insertHrRecords, setPermission } from "./fixtures";
import { hrTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
// The database fails in the middle of a save (after the branch was checked).
vi.mock("~/models/hr.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/models/hr.server")>();
  const down = async () => {
    throw new Error("connection reset by peer");
  };
  return { ...real, saveFigures: vi.fn(down), saveComment: vi.fn(down) };
});

const testDb = useTestDatabase();
let rowId = "";

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  rowId = String((await insertHrRecords(db)).find((r) => r.filial_nome === BRANCH_A)!._id);
  await setPermission(db, "gold@example.com", "USER GOLD");
});

describe("a save the database refuses", () => {
  it("answers 503 with a message (the spec's silent failure is not kept), for figures and comments", async () => {
    const errors = vi.mocked(console.error).mockImplementation(() => undefined);
    const post = (fields: Record<string, string>) =>
      action({
        request: new Request(`http://localhost${hrGridPath(BRANCH_A)}`, {
          method: "POST",
          body: new URLSearchParams(fields),
        }),
        params: { filial: BRANCH_A },
        context: {} as never,
      });
    const forms: Array<Record<string, string>> = [
      { intent: "save", confirmed: "1", [figureInputName("vendas_adicionais", rowId)]: "1,00" },
      { intent: "comment", id: rowId, comentario: "x" },
    ];
    for (const fields of forms) {
      const result = (await post(fields)) as unknown as { data: { error: string }; init: { status: number } };
      expect(result.init.status).toBe(503);
      expect(result.data.error).toBe(hrTexts.saveFailed);
    }
    expect(errors).toHaveBeenCalledTimes(2);
  });
});
