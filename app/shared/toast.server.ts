import { redirect } from "@remix-run/node";
import { z } from "zod";
import { signedCookie } from "./signed-cookie.server";

/**
 * A one-time toast: an action sets it (usually with a redirect), the next document or data
 * request shows it through the root loader, which also clears the cookie.
 */

const toastTypes = ["success", "error", "info", "warning"] as const;
export type ToastType = (typeof toastTypes)[number];

const toastSchema = z.object({
  id: z.string().min(1).max(64),
  type: z.enum(toastTypes),
  title: z.string().max(200).optional(),
  description: z.string().max(2000),
  /** How long the toast stays (default: the Toaster's 6 s); the upload message asks for 5 s. */
  durationMs: z.number().int().min(1000).max(60_000).optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = Omit<Toast, "id" | "type"> & { id?: string; type?: ToastType };

export const TOAST_COOKIE_NAME = "jp_toast";

// A toast nobody reads within a few minutes is stale.
const toastCookie = () => signedCookie(TOAST_COOKIE_NAME, 5 * 60);

/** The Set-Cookie header that carries a toast to the next request. */
export async function createToastHeaders(input: ToastInput): Promise<Headers> {
  const toast: Toast = toastSchema.parse({
    ...input,
    id: input.id ?? crypto.randomUUID(),
    type: input.type ?? "success",
  });
  return new Headers({ "Set-Cookie": await toastCookie().serialize(toast) });
}

/** Merges header sets; repeated Set-Cookie headers are all kept. */
export function combineHeaders(...sets: Array<HeadersInit | null | undefined>): Headers {
  const combined = new Headers();
  for (const set of sets) {
    if (!set) continue;
    for (const [key, value] of new Headers(set).entries()) combined.append(key, value);
  }
  return combined;
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit): Promise<Response> {
  return redirect(url, { ...init, headers: combineHeaders(init?.headers, await createToastHeaders(toast)) });
}

/**
 * The pending toast of a request, if any, and the headers that clear it.
 * A tampered or malformed cookie counts as no toast (and is cleared too).
 */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(`${TOAST_COOKIE_NAME}=`)) return { toast: null, headers: null };
  const cookie = toastCookie();
  const raw: unknown = await cookie.parse(cookieHeader).catch(() => null);
  const parsed = toastSchema.safeParse(raw);
  const headers = new Headers({ "Set-Cookie": await cookie.serialize("", { maxAge: 0, expires: new Date(0) }) });
  return { toast: parsed.success ? parsed.data : null, headers };
}

/** Reads a toast back from a response's Set-Cookie (tests and matchers use it). */
export async function readToastFromResponse(response: Response): Promise<Toast | null> {
  const setCookies = response.headers.getSetCookie();
  const mine = setCookies.find((c) => c.startsWith(`${TOAST_COOKIE_NAME}=`));
  if (!mine) return null;
  const pair = mine.split(";")[0];
  const raw: unknown = await toastCookie()
    .parse(pair)
    .catch(() => null);
  const parsed = toastSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
