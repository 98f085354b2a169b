/**
 * The longest id a form field or URL parameter may carry (a record's ObjectId is 24 hex characters; a collection,
 * tab, report or dashboard name a few dozen): a longer one is refused by the schema before anything is looked up.
 */
export const ID_PARAM_MAX = 100;
