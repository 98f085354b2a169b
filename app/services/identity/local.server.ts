import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";
import { consumeResetCode, deleteResetCodes, hashResetCode, storeResetCode } from "~/models/auth-records.server";
import { deleteLocalUser, findLocalUser, insertLocalUser, setLocalPassword } from "~/models/local-users.server";
import { normalizeEmail } from "~/models/users.server";
import { sendMail, sendMailInBackground } from "~/services/mail.server";
import { hashPassword, verifyPassword } from "~/services/password-hash.server";
import { isPasswordValid } from "~/shared/password-policy";
import { type IdentityProvider, IdentityProviderError, type ProviderResult, UserExistsError } from "./types";

/**
 * The embedded identity provider: credentials in MongoDB (`local_users`), scrypt hashes, e-mails through the
 * mail service. Its texts play the part of Cognito's provider messages.
 */

export const localProviderMessages = {
  codeMismatch: "Código inválido. Verifique o código recebido e tente novamente.",
  codeExpired: "Código expirado ou já utilizado. Solicite um novo código.",
  invalidPassword:
    "A senha não atende aos requisitos: mínimo de 8 caracteres, com letra maiúscula, letra minúscula, número e caractere especial.",
} as const;

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const RESET_CODE_TTL_MINUTES = 60;

// A fixed hash to verify against when the user does not exist, so both cases take the same time.
let dummyHash: Promise<string> | undefined;

// ---------------------------------------------------------------------------------------------
// First-access challenge: a signed, short-lived token naming the e-mail and bound to the current
// (temporary) password hash, so it cannot be forged and stops working once the password changes.

function sign(payload: string): string {
  return createHmac("sha256", getConfig().session.secret)
    .update(`new-password-challenge:${payload}`)
    .digest("base64url");
}

function hashFingerprint(passwordHash: string): string {
  return createHmac("sha256", getConfig().session.secret).update(passwordHash).digest("base64url").slice(0, 16);
}

export function createChallenge(email: string, passwordHash: string, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ e: normalizeEmail(email), x: now + CHALLENGE_TTL_MS, h: hashFingerprint(passwordHash) }),
  ).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

function readChallenge(token: string, now = Date.now()): { email: string; fingerprint: string } | null {
  const [payload, mac, extra] = token.split(".");
  if (!payload || !mac || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
      e?: unknown;
      x?: unknown;
      h?: unknown;
    };
    if (typeof data.e !== "string" || typeof data.x !== "number" || typeof data.h !== "string") return null;
    if (data.x <= now) return null;
    return { email: data.e, fingerprint: data.h };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

const LOWER = "abcdefghijkmnopqrstuvwxyz";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const DIGITS = "23456789";
const SPECIAL = "!@#$%&*?-_+=";

/** A random temporary password of 14 characters that meets the policy. */
export function generateTemporaryPassword(): string {
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIAL)];
  while (chars.length < 14) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join("");
}

/** Crockford's base32: no I, L, O or U, so a code read off a screen and typed back is not misread. */
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const RESET_CODE_LENGTH = 26;

/**
 * A reset code of 130 random bits (26 characters of base32): guessing is hopeless however many tries an attacker
 * gets, so the code alone, from the e-mail, proves the mailbox. One word, so a double click copies all of it.
 */
export function generateResetCode(): string {
  const bytes = randomBytes(RESET_CODE_LENGTH);
  return Array.from(bytes, (b) => CODE_ALPHABET[b & 31]).join("");
}

/** The code as typed back: case, spaces and hyphens ignored, the look-alikes read as Crockford reads them. */
export function normalizeResetCode(code: string): string | null {
  const normalized = code.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return new RegExp(`^[${CODE_ALPHABET}]{${RESET_CODE_LENGTH}}$`).test(normalized) ? normalized : null;
}

export function createLocalIdentityProvider(): IdentityProvider {
  return {
    kind: "local",

    async signIn(email, password) {
      const user = await findLocalUser(email);
      if (!user) {
        dummyHash ??= hashPassword("not-a-real-password-Aa1!");
        await verifyPassword(password, await dummyHash);
        return { kind: "invalid" };
      }
      if (!(await verifyPassword(password, user.passwordHash))) return { kind: "invalid" };
      if (user.mustChangePassword)
        return { kind: "newPasswordRequired", challengeSession: createChallenge(user.email, user.passwordHash) };
      return { kind: "ok" };
    },

    async completeNewPassword(email, challengeSession, newPassword) {
      const challenge = readChallenge(challengeSession);
      if (!challenge || challenge.email !== normalizeEmail(email)) return { kind: "invalid" };
      const user = await findLocalUser(email);
      if (!user?.mustChangePassword || hashFingerprint(user.passwordHash) !== challenge.fingerprint)
        return { kind: "invalid" };
      if (!isPasswordValid(newPassword)) return { kind: "error", message: localProviderMessages.invalidPassword };
      const changed = await setLocalPassword(
        user.email,
        await hashPassword(newPassword),
        new Date(),
        user.passwordHash,
      );
      return changed ? { kind: "ok" } : { kind: "invalid" };
    },

    async forgotPassword(email): Promise<ProviderResult> {
      const user = await findLocalUser(email);
      if (!user) return { kind: "ok" };
      const config = getConfig();
      const code = generateResetCode();
      await storeResetCode(
        user.email,
        hashResetCode(user.email, code, config.session.secret),
        new Date(),
        RESET_CODE_TTL_MINUTES,
      );
      const link = `${config.origin}/recovery/${code}`;
      // The answer must not depend on whether the account exists or on what the relay does.
      await sendMailInBackground({
        to: user.email,
        subject: `${config.brandText}: código para redefinir sua senha`,
        text:
          `Recebemos um pedido para redefinir a senha de ${user.email}.\n\n` +
          `Seu código: ${code}\n\nOu abra o link: ${link}\n\n` +
          `O código vale por 1 hora e pode ser usado uma única vez. Se você não fez este pedido, ignore este e-mail.`,
      });
      return { kind: "ok" };
    },

    async confirmForgotPassword(email, code, newPassword): Promise<ProviderResult> {
      const config = getConfig();
      const typed = normalizeResetCode(code);
      if (!typed) return { kind: "error", message: localProviderMessages.codeMismatch };
      if (!isPasswordValid(newPassword)) return { kind: "error", message: localProviderMessages.invalidPassword };
      const result = await consumeResetCode(email, hashResetCode(email, typed, config.session.secret), new Date());
      if (result === "mismatch") return { kind: "error", message: localProviderMessages.codeMismatch };
      if (result === "expired") return { kind: "error", message: localProviderMessages.codeExpired };
      const changed = await setLocalPassword(email, await hashPassword(newPassword), new Date());
      return changed ? { kind: "ok" } : { kind: "error", message: localProviderMessages.codeExpired };
    },

    async adminCreateUser(email) {
      const config = getConfig();
      const normalized = normalizeEmail(email);
      const temporaryPassword = generateTemporaryPassword();
      const inserted = await insertLocalUser({
        email: normalized,
        passwordHash: await hashPassword(temporaryPassword),
        mustChangePassword: true,
        createdAt: new Date(),
      });
      if (!inserted) throw new UserExistsError(normalized);
      try {
        await sendMail({
          to: normalized,
          subject: `${config.brandText}: seu acesso`,
          text:
            `Uma conta foi criada para você no ${config.brandText}.\n\n` +
            `Usuário: ${normalized}\nSenha temporária: ${temporaryPassword}\n\n` +
            `Acesse ${config.origin}/ e defina uma nova senha no primeiro acesso.`,
        });
      } catch (error) {
        // Nobody knows the temporary password: credentials kept now would block every later attempt.
        await deleteLocalUser(normalized);
        throw new IdentityProviderError("mailFailed", { cause: error });
      }
    },

    async adminDeleteUser(email) {
      await deleteLocalUser(email);
      await deleteResetCodes(email);
    },

    async signOut() {
      // Local sign-in issues no provider tokens: the portal session is all there is.
    },
  };
}
