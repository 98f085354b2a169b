/** The most bytes the preparers' template may have when sent back (the host's body limit for its route adds room). */
export const PREPARERS_TEMPLATE_MAX_BYTES = 5 * 1024 * 1024;
