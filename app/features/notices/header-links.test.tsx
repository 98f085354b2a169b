import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { NoticeHeaderLinks } from "./header-links";
import { noticeTexts } from "./texts";

async function render(unread: number) {
  return renderAt("/captura/manual", <NoticeHeaderLinks unread={unread} />);
}

describe("the header's notice links", () => {
  it("shows the unread count, for screen readers too, and links the list and the settings", async () => {
    const html = await render(3);
    expect(html).toContain(`aria-label="${noticeTexts.headerLinksLabel}"`);
    expect(html).toContain('href="/user/notices"');
    expect(html).toContain(`aria-label="${noticeTexts.headerNoticesAria(3)}"`);
    expect(html).toContain("Avisos (3)");
    expect(html).toContain(`href="/user/settings">${noticeTexts.headerSettings}</a>`);
  });

  it("shows no count when everything is read", async () => {
    const html = await render(0);
    expect(html).not.toContain("(0)");
    expect(html).toContain(`${noticeTexts.headerNotices}</a>`);
  });
});
