import { canAccess, type PermissionType } from "~/access";
import { getConfig } from "~/config.server";

/**
 * A stand-in for app/auth.server's requireAccess in loader tests: the signed-in user is `currentUser`,
 * and the real access table decides (403 as the real guard does). Use with
 *   vi.mock("~/auth.server", () => import("../auth-mock"));
 */
export const currentUser: { email: string; name: string; type: PermissionType | null } = {
  email: "gold@example.com",
  name: "Gold User",
  type: "USER GOLD",
};

export async function requireAccess(request: Request, path?: string) {
  if (!currentUser.type) throw new Response(null, { status: 302, headers: { Location: "/" } });
  const pathname = path ?? new URL(request.url).pathname;
  if (!canAccess(currentUser.type, pathname, getConfig().features)) throw new Response("Forbidden", { status: 403 });
  return { email: currentUser.email, name: currentUser.name, type: currentUser.type, sessionId: "test-session" };
}
