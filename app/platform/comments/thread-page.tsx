import { type FetcherWithComponents, Form, Link, useNavigation } from "@remix-run/react";
import { type ReactNode, useId, useRef, useState } from "react";
import { Alert } from "~/shared/ui/alert";
import { nameKey } from "./mentions";
import { commentTexts as t } from "./texts";
import type { ThreadPage as ThreadData } from "./threads.server";
import "./comments.css";

/** Suggestions shown while an @name is typed. */
const SUGGESTIONS = 8;

/** The element a thread's forms are: the page's `Form` (a navigation), or a fetcher's (the grid's side panel). */
export type ThreadFormElement = typeof Form | FetcherWithComponents<unknown>["Form"];

/**
 * A cell's thread: its comments (folded when resolved), the form to add one with `@name` suggestions and a live
 * counter, and resolving or opening the thread again. Plain forms posting to the page: without JavaScript the people
 * who may be mentioned are listed under the form; with it, typing "@" and a few letters offers them.
 */
export function CellThreadPage({
  page,
  error,
  typed,
  children,
}: {
  page: ThreadData;
  error: string | null;
  /** The text a refused comment had, given back to the form. */
  typed: string;
  /** What the screen adds (its way to another cell). */
  children?: ReactNode;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <section className="cell-thread" aria-labelledby="cell-thread-title">
      <p className="cell-thread__back">
        <Link to={page.gridHref}>{t.openInGrid}</Link>
      </p>
      <h1 id="cell-thread-title">{t.titleOf(page.label)}</h1>
      <p className="cell-thread__place">{page.place}</p>
      <CellThread page={page} error={error} typed={typed} busy={busy} />
      {children}
    </section>
  );
}

/**
 * The thread itself (its page's, and the grid's side panel's): the comments, resolving, and the form. `form` and
 * `action` say how its forms post (the page's own by default); the server's action and its checks are the same.
 */
export function CellThread({
  page,
  error,
  typed,
  busy,
  form: FormElement = Form,
  action,
}: {
  page: ThreadData;
  error: string | null;
  typed: string;
  busy: boolean;
  form?: ThreadFormElement;
  action?: string;
}) {
  const list = <CommentList comments={page.comments} hidden={page.total - page.comments.length} />;
  return (
    <>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {page.total === 0 ? <p>{t.empty}</p> : null}
      {page.resolved ? (
        <details className="cell-thread__folded">
          <summary>{t.folded(page.total)}</summary>
          <p>{t.resolvedBy(page.resolved.by, page.resolved.when)}</p>
          {list}
        </details>
      ) : (
        list
      )}
      {page.total > 0 ? (
        <FormElement method="post" action={action} className="cell-thread__state">
          <input type="hidden" name="intent" value={page.resolved ? "reopen" : "resolve"} />
          <button type="submit" className="button button--secondary" disabled={busy}>
            {page.resolved ? t.reopen : t.resolve}
          </button>
        </FormElement>
      ) : null}
      {/* A new comment starts an empty form (the count changed); a refused one keeps its text. */}
      <CommentForm key={page.total} page={page} typed={typed} busy={busy} form={FormElement} action={action} />
    </>
  );
}

function CommentList({ comments, hidden }: { comments: ThreadData["comments"]; hidden: number }) {
  if (comments.length === 0) return null;
  return (
    <>
      {hidden > 0 ? <p className="cell-thread__note">{t.olderHidden(comments.length)}</p> : null}
      <ol className="cell-thread__comments">
        {comments.map((c) => (
          <li key={c.id}>
            <p className="cell-thread__meta">
              <strong>{c.who}</strong> · {c.when}
            </p>
            <p className="cell-thread__text">{c.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}

/** The @name being typed before the caret, if any (a name may hold spaces): its start and what was typed after "@". */
function typedMention(text: string, caret: number): { start: number; prefix: string } | null {
  const before = text.slice(Math.max(0, caret - 100), caret);
  const match = /(?:^|[^\p{L}\p{N}._+\-@])@([^\n@]{0,60})$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[1].length - 1, prefix: match[1].replace(/^\s+/u, "") };
}

type Person = ThreadData["mentionable"][number];

/** Whether a person fits what was typed after "@": the start of their mention or of one of its words, or their e-mail. */
function fits(person: Person, typed: string): boolean {
  const key = nameKey(typed);
  const mention = nameKey(person.mention);
  if (mention.startsWith(key) || person.email?.startsWith(typed.toLowerCase())) return true;
  return !key.includes(" ") && mention.split(" ").some((word) => word.startsWith(key));
}

/** A person as listed: the name, what to write when a code tells them apart, and the e-mail for those who may see it. */
function PersonLabel({ person }: { person: Person }) {
  return (
    <>
      {person.name}
      {person.tag ? <span className="cell-thread__handle"> @{person.mention}</span> : null}
      {person.email ? <span className="cell-thread__handle"> {person.email}</span> : null}
    </>
  );
}

function CommentForm({
  page,
  typed,
  busy,
  form: FormElement,
  action,
}: {
  page: ThreadData;
  typed: string;
  busy: boolean;
  form: ThreadFormElement;
  action?: string;
}) {
  const [text, setText] = useState(typed);
  const [mention, setMention] = useState<{ start: number; prefix: string } | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const used = text.replace(/\r\n?/g, "\n").length;
  const matches = mention ? page.mentionable.filter((p) => fits(p, mention.prefix)).slice(0, SUGGESTIONS) : [];
  const pick = (person: string) => {
    if (!mention) return;
    const caret = area.current?.selectionStart ?? text.length;
    const next = `${text.slice(0, mention.start)}@${person} ${text.slice(caret)}`;
    setText(next);
    setMention(null);
    area.current?.focus();
  };
  const follow = (element: HTMLTextAreaElement) => {
    setText(element.value);
    setMention(typedMention(element.value, element.selectionStart ?? element.value.length));
  };
  return (
    <FormElement method="post" action={action} className="cell-thread__form">
      <input type="hidden" name="intent" value="comment" />
      <label htmlFor={`${id}-text`}>{t.newComment}</label>
      <p id={`${id}-hint`} className="cell-thread__note">
        {t.hint}
      </p>
      <textarea
        ref={area}
        id={`${id}-text`}
        name="text"
        rows={4}
        maxLength={page.max}
        required
        value={text}
        aria-describedby={`${id}-hint ${id}-count`}
        onChange={(event) => follow(event.currentTarget)}
        onKeyUp={(event) => follow(event.currentTarget)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setMention(null);
        }}
      />
      {matches.length > 0 ? (
        <ul className="cell-thread__suggestions" aria-label={t.suggestions}>
          {matches.map((p) => (
            <li key={p.mention}>
              <button type="button" className="button button--secondary" onClick={() => pick(p.mention)}>
                <PersonLabel person={p} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p id={`${id}-count`} className="cell-thread__note" aria-live="polite">
        {t.counter(used, page.max)}
      </p>
      <button type="submit" className="button button--primary" disabled={busy}>
        {t.submit}
      </button>
      <details className="cell-thread__people">
        <summary>{t.mentionable}</summary>
        <ul>
          {page.mentionable.map((p) => (
            <li key={p.mention}>
              <PersonLabel person={p} />
            </li>
          ))}
        </ul>
        {page.mentionableMore > 0 ? <p>{t.mentionableMore(page.mentionableMore)}</p> : null}
      </details>
    </FormElement>
  );
}

export type ThreadListRow = { label: string; href: string; comments: number; resolved: boolean };

/** A grid's commented cells (each opening its thread), and the screen's way to open any cell's thread. */
export function CellThreadList({
  place,
  gridHref,
  rows,
  children,
}: {
  place: string;
  gridHref: string;
  rows: readonly ThreadListRow[];
  children?: ReactNode;
}) {
  return (
    <section className="cell-thread" aria-labelledby="cell-threads-title">
      <p className="cell-thread__back">
        <Link to={gridHref}>{t.backToGrid}</Link>
      </p>
      <h1 id="cell-threads-title">{t.listTitle(place)}</h1>
      {rows.length === 0 ? (
        <p>{t.noThreads}</p>
      ) : (
        <table className="cell-thread__cells">
          <caption className="visually-hidden">{t.cells}</caption>
          <thead>
            <tr>
              <th scope="col">{t.cellColumn}</th>
              <th scope="col">{t.countColumn}</th>
              <th scope="col">{t.stateColumn}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.href}>
                <td>
                  <Link to={row.href}>{row.label}</Link>
                </td>
                <td>{row.comments}</td>
                <td>{row.resolved ? t.resolved : t.open}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {children}
    </section>
  );
}
