import { NODE_HARDENING_FLAGS } from "embedded-mongo/process";

/**
 * The web process's V8 flags. A page allocates a few MB (React's elements and chunks, the driver's replies, the
 * loader data), and 50 requests in flight fill V8's default 16 MB young generation before their garbage is
 * dead: each scavenge then copies live request state and promotes part of it to the old generation. With 64 MB
 * semi-spaces a page's garbage mostly dies young: less GC pause per request on the data pages, for more RSS under
 * load; idle RSS is unchanged (docs/performance.md). `npm start` (the image's CMD) lists the same flags; a test keeps
 * them equal.
 */
export const WEB_GC_FLAGS = ["--max-semi-space-size=64"];

/** What the web process runs with: the hardening every process has, and the GC flags above. */
export const WEB_NODE_FLAGS = [...NODE_HARDENING_FLAGS, ...WEB_GC_FLAGS];
