/** The URL parameters of the user lists, for the browser and the server alike: the e-mail search, and the user a creation just added (highlighted). */
export const EMAIL_SEARCH_PARAM = "email";
export const NEW_USER_PARAM = "novo";
