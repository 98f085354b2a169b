/**
 * Lengths of the account fields, shared by the forms (checked in the browser) and the account service
 * (checked again on the server).
 */

/** The longest e-mail address accepted (RFC 5321's path limit; Cognito's own user-name limit is checked by its provider). */
export const EMAIL_MAX_LENGTH = 254;

/** The longest reset code read (the codes sent are 6 digits; Cognito's are shorter than this too). */
export const RESET_CODE_MAX_LENGTH = 64;
