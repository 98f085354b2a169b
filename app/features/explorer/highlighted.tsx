import { Fragment } from "react";
import type { Segment } from "~/models/explorer-search";

/** A text cut into pieces by the server, the matching ones marked (plain pieces stay text: fewer elements to render). */
export function Highlighted({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((segment, i) =>
        segment.match ? <mark key={i}>{segment.text}</mark> : <Fragment key={i}>{segment.text}</Fragment>,
      )}
    </>
  );
}
