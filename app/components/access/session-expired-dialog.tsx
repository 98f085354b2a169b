import { Link } from "@remix-run/react";
import { messages } from "~/messages";
import { PageDialog } from "./page-dialog";

/** "Aviso / Ops. essa sessão expirou!" — shown on `/` when a protected request found its session gone. */
export function SessionExpiredDialog({ open }: { open: boolean }) {
  return (
    <PageDialog
      open={open}
      dismissible={false}
      title={messages.sessionExpiredTitle}
      description={messages.sessionExpired}
      footer={
        // A document load of "/": the modal goes away with the parameter, and a stale cookie is re-read.
        <Link className="button button--primary" to="/" reloadDocument>
          {messages.loginButton}
        </Link>
      }
    />
  );
}
