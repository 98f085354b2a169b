import { type AccessMode, canAccessRoute, type PermissionType, type RouteId } from "~/access";
import { accessContext } from "~/config.server";

/**
 * A stand-in for app/platform/auth/auth.server's guards in loader tests: the signed-in user is `currentUser`, and the real
 * access table decides by route id (403 as the real guard does). Use with
 *   vi.mock("~/platform/auth/auth.server", () => import("../auth-mock"));
 */
export const currentUser: { email: string; name: string; type: PermissionType | null } = {
  email: "gold@example.com",
  name: "Gold User",
  type: "USER GOLD",
};

function signedIn() {
  if (!currentUser.type) throw new Response(null, { status: 302, headers: { Location: "/" } });
  return { email: currentUser.email, name: currentUser.name, type: currentUser.type, sessionId: "test-session" };
}

export async function requireRouteAccess(routeId: RouteId, _request: Request, mode: AccessMode = "read") {
  const user = signedIn();
  if (!canAccessRoute(user.type, routeId, accessContext(), mode)) throw new Response("Forbidden", { status: 403 });
  return user;
}

export function canWriteRoute(user: { type: PermissionType }, routeId: RouteId): boolean {
  return canAccessRoute(user.type, routeId, accessContext(), "write");
}

export function assertSameOrigin(): void {}
