import { Link } from "@remix-run/react";
import "./thread-link.css";

/** A row's comment thread as a grid shows it: its comments' count, and whether it is resolved. */
export type ThreadState = { comments: number; resolved: boolean };

/** The link's texts (kept here, not in `commentTexts`, so a grid's script carries only these). */
export const threadLinkTexts = {
  start: "Comentar",
  count: (n: number) => (n === 1 ? "1 comentário" : `${n} comentários`),
} as const;

/**
 * A grid row's way to its thread (the HR and planning grids): "Comentar", or the count of its comments, an open thread
 * marked. `label` names the row for a screen reader; `id` is the anchor a mention's link opens the grid at.
 */
export function ThreadLink({ to, state, label, id }: { to: string; state?: ThreadState; label: string; id?: string }) {
  return (
    <Link
      id={id}
      to={to}
      className={state && !state.resolved ? "thread-link is-open" : "thread-link"}
      aria-label={label}
    >
      {state ? threadLinkTexts.count(state.comments) : threadLinkTexts.start}
    </Link>
  );
}
