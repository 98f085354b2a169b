import { highlightSegments, type SearchQuery } from "~/domain/search";

/** The text with the searched words (or the exact phrase) marked. */
export function Highlighted({ text, query }: { text: string; query: SearchQuery | null }) {
  return (
    <>
      {highlightSegments(text, query).map((segment, i) => (segment.match ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>))}
    </>
  );
}
