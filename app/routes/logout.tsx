// Screen: Logout: POST /logout.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { messages } from "~/messages";
import { assertSameOrigin, getOptionalUser } from "~/platform/auth/auth.server";
import { logout } from "~/platform/auth/session.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: messages.logoutTitle }];

/** POST /logout (the header menu's Logout button): ends the session everywhere and returns to `/`. */
export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  return logout(request);
}

/**
 * GET /logout has no side effect: a link prefetch (`prefetch="intent"`) or a cross-site `<img src>` must not
 * sign anyone out. Signed in, it offers the same POST button (the link fallback); signed out, it goes to `/`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect("/");
  return null;
}

export default function LogoutPage() {
  return (
    <div className="login">
      <div className="card login__card">
        <h1 className="login__title">{messages.logoutTitle}</h1>
        <p>{messages.logoutPrompt}</p>
        <Form method="post" action="/logout">
          <button type="submit" className="button button--primary button--block">
            {messages.menuLogout}
          </button>
        </Form>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
