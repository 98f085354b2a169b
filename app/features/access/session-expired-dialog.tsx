import { Link } from "@remix-run/react";
import { RETURN_TO_PARAM } from "~/platform/auth/return-to-param";
import { PageDialog } from "~/shared/forms/page-dialog";
import { accessTexts } from "./texts";

/**
 * "Aviso / Ops. essa sessão expirou! Faça login novamente." (spec 000 §2, §8) — shown on `/` when a protected
 * page found no session. Its Login button goes to `/`, keeping the page asked for (`?redirectTo=`) so the
 * sign-in can return there.
 */
export function SessionExpiredDialog({ open, returnTo = null }: { open: boolean; returnTo?: string | null }) {
  return (
    <PageDialog
      open={open}
      dismissible={false}
      title={accessTexts.sessionExpiredTitle}
      description={accessTexts.sessionExpired}
      footer={
        // A document load of "/": the modal goes away with the parameter, and a stale cookie is re-read.
        <Link
          className="button button--primary"
          to={returnTo ? `/?${new URLSearchParams({ [RETURN_TO_PARAM]: returnTo })}` : "/"}
          reloadDocument
        >
          {accessTexts.loginButton}
        </Link>
      }
    />
  );
}
