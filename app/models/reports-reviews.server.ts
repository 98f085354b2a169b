import type { Collection, Filter, ObjectId } from "mongodb";
import { getDb } from "~/db.server";
import { readPageOrLast } from "~/shared/pagination";
import { countMatching } from "./counting.server";
import type { IndexDeclaration } from "./indexes";

/** Product reviews and their scores (spec 001 §3 "Review/score sample row"), shown under Relatorios (docs/decisions.md). */

export const PRODUCT_REVIEWS = "product_reviews";
export const REVIEW_PAGE_SIZE = 20;
export const REVIEW_GRADES = [1, 2, 3, 4, 5] as const;
export const REVIEW_SENTIMENTS = ["positivo", "neutro", "negativo"] as const;

export type ProductReview = {
  _id?: ObjectId;
  /** The model's score, 0 to 1. */
  score: number;
  id_produto: string;
  nome_produto: string;
  /** 1 to 5. */
  nota: number;
  recomenda_produto: boolean;
  sentiment: (typeof REVIEW_SENTIMENTS)[number];
  comentario: string;
  date: Date;
};

export const indexes: IndexDeclaration[] = [
  // The list (all grades or one), newest first; the distribution counts one grade at a time on its prefix.
  { collection: PRODUCT_REVIEWS, key: { nota: 1, date: -1, _id: -1 }, options: { name: "nota_date" } },
  { collection: PRODUCT_REVIEWS, key: { date: -1, _id: -1 }, options: { name: "date_desc" } },
];

async function reviews(): Promise<Collection<ProductReview>> {
  return (await getDb()).collection<ProductReview>(PRODUCT_REVIEWS);
}

export async function listReviewsPage(grade: number | null, page: number) {
  const collection = await reviews();
  const filter: Filter<ProductReview> = grade ? { nota: grade } : {};
  const result = await readPageOrLast(
    page,
    REVIEW_PAGE_SIZE,
    (p) =>
      collection
        .find(filter)
        .sort({ date: -1, _id: -1 })
        .skip((p - 1) * REVIEW_PAGE_SIZE)
        .limit(REVIEW_PAGE_SIZE)
        .toArray(),
    () => countMatching(collection, filter),
  );
  return { ...result, pageSize: REVIEW_PAGE_SIZE };
}

/** How many reviews have each grade (five index counts). */
export async function gradeDistribution(): Promise<{ nota: number; count: number }[]> {
  const collection = await reviews();
  return Promise.all(REVIEW_GRADES.map(async (nota) => ({ nota, count: await collection.countDocuments({ nota }) })));
}
