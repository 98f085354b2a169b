/** /user/emails's address and URL parameters: one list for the loader and the screen's links and form. */
export const OUTBOX_PATH = "/user/emails";
export const OUTBOX_PARAMS = { to: "para", message: "mensagem" } as const;
