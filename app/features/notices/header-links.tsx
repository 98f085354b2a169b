import { NavLink } from "@remix-run/react";
import { noticeHeaderTexts } from "./header-texts";
import "./notices.css";

/**
 * The header's "Avisos (n)" and "Preferências" links of a signed-in user, beside the user menu. Kept outside the user
 * menu's own list so that menu stays what app/access.ts builds.
 */
export function NoticeHeaderLinks({ unread }: { unread: number }) {
  return (
    <nav className="notice-links" aria-label={noticeHeaderTexts.headerLinksLabel}>
      <ul>
        <li>
          <NavLink
            to="/user/notices"
            prefetch="intent"
            aria-label={unread > 0 ? noticeHeaderTexts.headerNoticesAria(unread) : undefined}
          >
            {unread > 0 ? noticeHeaderTexts.headerNoticesWithCount(unread) : noticeHeaderTexts.headerNotices}
          </NavLink>
        </li>
        <li>
          <NavLink to="/user/settings" prefetch="intent">
            {noticeHeaderTexts.headerSettings}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
