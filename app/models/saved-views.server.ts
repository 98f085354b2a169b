import { ObjectId } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import type { IndexDeclaration } from "./indexes";
import { aggregateTogether } from "./reads-together.server";
import { normalizeEmail } from "./users.server";

/**
 * Saved views: a user's named addresses of a screen (its filters, columns and sort as the URL holds them), one of them
 * per screen the default its menu entry opens. The address is checked by the feature before it is stored (a portal
 * path of a screen that keeps views); opening one applies the screen's own rules to whoever opens it.
 */

export const SAVED_VIEWS = "saved_views";
/** Views one user may keep. */
export const MAX_VIEWS_PER_USER = 50;

export type SavedViewRecord = {
  _id: ObjectId;
  user: string;
  /** The screen's path (without its query), e.g. "/ij/plan_edit" or "/ij/rh_edit/Loja Centro" as requested. */
  screen: string;
  /** The query, "" or starting with "?". */
  query: string;
  name: string;
  isDefault: boolean;
  createdAt: Date;
};

export const indexes: IndexDeclaration[] = [
  { collection: SAVED_VIEWS, key: { user: 1, name: 1 }, options: { name: "user_name_unique", unique: true } },
  { collection: SAVED_VIEWS, key: { user: 1, screen: 1, isDefault: 1 }, options: { name: "user_screen_default" } },
];

const views = async () => (await getDb()).collection<SavedViewRecord>(SAVED_VIEWS);

export class ViewNameTakenError extends Error {}

export async function countViews(user: string): Promise<number> {
  return (await views()).countDocuments({ user: normalizeEmail(user) });
}

export async function insertView(
  input: Omit<SavedViewRecord, "_id" | "createdAt" | "isDefault">,
): Promise<SavedViewRecord> {
  const record: SavedViewRecord = {
    _id: new ObjectId(),
    ...input,
    user: normalizeEmail(input.user),
    isDefault: false,
    createdAt: new Date(),
  };
  try {
    await (await views()).insertOne(record);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new ViewNameTakenError(input.name);
    throw error;
  }
  return record;
}

export async function listViews(user: string): Promise<SavedViewRecord[]> {
  return (await views())
    .find({ user: normalizeEmail(user) })
    .sort({ screen: 1, name: 1 })
    .limit(MAX_VIEWS_PER_USER * 2)
    .toArray();
}

export async function findView(user: string, id: string): Promise<SavedViewRecord | null> {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  return (await views()).findOne({ _id: ObjectId.createFromHexString(id), user: normalizeEmail(user) });
}

/** Makes `view` its screen's default for its user (the others of that screen lose it), or none (`on` false). */
export async function setDefaultView(view: SavedViewRecord, on: boolean): Promise<void> {
  const collection = await views();
  if (on)
    await collection.updateMany(
      { user: view.user, screen: view.screen, isDefault: true, _id: { $ne: view._id } },
      { $set: { isDefault: false } },
    );
  await collection.updateOne({ _id: view._id }, { $set: { isDefault: on } });
}

export async function defaultViewOf(user: string, screen: string): Promise<SavedViewRecord | null> {
  // Read together with the page's other reads of the same turn (a list starts its page beside it).
  const [view] = await aggregateTogether<SavedViewRecord>(SAVED_VIEWS, [
    { $match: { user: normalizeEmail(user), screen, isDefault: true } },
    { $limit: 1 },
  ]);
  return view ?? null;
}

export async function deleteView(view: SavedViewRecord): Promise<boolean> {
  return (await (await views()).deleteOne({ _id: view._id })).deletedCount === 1;
}
