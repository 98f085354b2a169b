// Screen: The user's notices: /user/notices (the portal's notices to the user, newest first).
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { loadNoticesPage, noticesAction } from "~/features/notices/pages.server";
import { NOTICES_PATH } from "~/features/notices/paths";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import "~/features/notices/notices.css";
import { noticeTexts } from "~/messages";
import { formatDateTime } from "~/shared/dates";
import { Alert } from "~/shared/ui/alert";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";

export const meta: MetaFunction = () => [{ title: noticeTexts.listTitle }];

/**
 * /user/notices: the signed-in user's own notices, newest first, one server page at a time (`?page=…`), unread ones
 * highlighted. Open marks a notice read and goes to its portal link; plain forms, so it works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/user.notices", request);
  return data(await loadNoticesPage(user.email, new URL(request.url)), {
    headers: { "Cache-Control": "no-store" },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/user.notices", request);
  return noticesAction(user.email, request);
}

const pageHref = (page: number) => (page > 1 ? `${NOTICES_PATH}?page=${page}` : NOTICES_PATH);

export default function UserNotices() {
  const { rows, unread, page, pageCount } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <section aria-labelledby="notices-title">
      <h1 id="notices-title">{noticeTexts.listTitle}</h1>
      <p>{noticeTexts.listIntro}</p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="notice-toolbar">
        <p>{noticeTexts.unreadSummary(unread)}</p>
        {unread > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="readAll" />
            <button type="submit" className="button button--secondary button--small">
              {noticeTexts.markAllRead}
            </button>
          </Form>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p>{noticeTexts.empty}</p>
      ) : (
        <ul className="notice-list">
          {rows.map((notice) => (
            <li key={notice.id} className={notice.unread ? "notice-item notice-item--unread" : "notice-item"}>
              <div className="notice-item__head">
                <h2 className="notice-item__title">{notice.title}</h2>
                {notice.unread ? <span className="notice-item__badge">{noticeTexts.unreadBadge}</span> : null}
                <span className="notice-item__date">
                  {noticeTexts.receivedAt} {formatDateTime(notice.createdAt)}
                </span>
              </div>
              <p className="notice-item__body">{notice.body}</p>
              {notice.links.length > 0 ? (
                <ul className="notice-item__links">
                  {notice.links.map((l) => (
                    <li key={l.path}>
                      <a href={l.path}>{l.label}</a>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="notice-item__actions">
                {notice.link ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="open" />
                    <input type="hidden" name="id" value={notice.id} />
                    <button type="submit" className="button button--primary button--small">
                      {noticeTexts.open}
                    </button>
                  </Form>
                ) : null}
                {notice.unread ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="read" />
                    <input type="hidden" name="id" value={notice.id} />
                    <button type="submit" className="button button--secondary button--small">
                      {noticeTexts.markRead}
                    </button>
                  </Form>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <nav className="notice-pager" aria-label={noticeTexts.pagination}>
          {page > 1 ? <Link to={pageHref(page - 1)}>{noticeTexts.previousPage}</Link> : null}
          <span>{noticeTexts.pageOf(page, pageCount)}</span>
          {page < pageCount ? <Link to={pageHref(page + 1)}>{noticeTexts.nextPage}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
