import * as RadixDialog from "@radix-ui/react-dialog";
import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { commentTexts as t } from "~/platform/comments/texts";
import { CellThread } from "~/platform/comments/thread-page";
import type { ThreadPage, ThreadPanelAnswer } from "~/platform/comments/threads.server";
import "~/platform/comments/comments.css";
import "./comments-panel.css";

/**
 * A cell's comments beside the grid (with JavaScript; without it, the same thread is its own page, `url`): a non-modal
 * dialog, so the grid stays usable. The focus moves into it when it opens; Escape inside it (or its close button)
 * closes it, and the grid gives the focus back to the cell. The thread is the thread page's loader, and a comment is
 * posted to the thread page's action (`&painel=1`: answered in place, not redirected), with its checks and audit.
 * Loaded with the first panel opened (forecast-grid.tsx).
 */

/** What the thread page's loader answers for one cell. */
type ThreadLoad = { kind: "thread"; thread: ThreadPage } | { kind: "list" };

export default function CommentsPanel({
  url,
  onPosted,
  onClose,
}: {
  /** The cell's thread page (`…/comentarios?conta=&mes=`). */
  url: string;
  /** A comment was posted: the grid marks its cell. */
  onPosted: () => void;
  onClose: () => void;
}) {
  const thread = useFetcher<ThreadLoad>();
  const post = useFetcher<ThreadPanelAnswer>();
  const content = useRef<HTMLDivElement>(null);
  // The fetcher's load, as of the last render (its identity is the fetcher's business).
  const load = useRef(thread.load);
  load.current = thread.load;
  useEffect(() => {
    load.current(url);
  }, [url]);
  // Into the panel once it is drawn (after any dialog that closed as it opened has given the focus back).
  useEffect(() => {
    const timer = setTimeout(() => content.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  // Each comment posted told once (the answer object is new per post); the thread reloads as the action's revalidation.
  const told = useRef<unknown>(null);
  useEffect(() => {
    if (post.state !== "idle" || !post.data?.ok || told.current === post.data) return;
    told.current = post.data;
    onPosted();
  }, [post.state, post.data, onPosted]);

  const page = thread.data?.kind === "thread" ? thread.data.thread : null;
  const refused = post.data && !post.data.ok ? post.data : null;
  return (
    <RadixDialog.Root open modal={false} onOpenChange={(open) => (open ? undefined : onClose())}>
      <RadixDialog.Content
        ref={content}
        className="comments-panel cell-thread"
        aria-describedby={undefined}
        onOpenAutoFocus={(event) => event.preventDefault()}
        onCloseAutoFocus={(event) => event.preventDefault()}
        // The grid beside it stays in use: a click there leaves the panel open.
        onInteractOutside={(event) => event.preventDefault()}
        // Escape in the grid is the grid's (an editor's); in the panel, it closes the panel.
        onEscapeKeyDown={(event) => {
          if (!content.current?.contains(document.activeElement)) event.preventDefault();
        }}
      >
        <div className="comments-panel__head">
          <RadixDialog.Title className="comments-panel__title">
            {page ? t.titleOf(page.label) : t.title}
          </RadixDialog.Title>
          <RadixDialog.Close className="button button--secondary comments-panel__close" aria-label={t.panel.close}>
            ×
          </RadixDialog.Close>
        </div>
        {page ? (
          <CellThread
            page={page}
            error={refused?.message ?? null}
            typed={refused?.text ?? ""}
            busy={post.state !== "idle"}
            form={post.Form}
            action={`${url}&painel=1`}
          />
        ) : (
          <p role="status">{t.panel.loading}</p>
        )}
        <p className="comments-panel__page">
          <Link to={url}>{t.panel.fullPage}</Link>
        </p>
      </RadixDialog.Content>
    </RadixDialog.Root>
  );
}
