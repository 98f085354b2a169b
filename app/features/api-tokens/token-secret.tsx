import { useEffect, useState } from "react";
import { tokenTexts } from "./texts";

/**
 * A new token's secret, shown once: the whole secret as text that wraps and is selected with one click (no JavaScript
 * needed to copy it by hand), and "Copiar token", which JavaScript shows and runs (the clipboard), saying "Copiado".
 */

const SECRET_ID = "token-secret";

export function TokenSecret({ name, secret, expiresAt }: { name: string; secret: string; expiresAt: string }) {
  return (
    <div className="token-secret" role="status">
      <h2>{tokenTexts.createdTitle}</h2>
      <p>{tokenTexts.createdOnce}</p>
      <p className="token-secret__name">{name}</p>
      <code id={SECRET_ID} className="token-secret__value">
        {secret}
      </code>
      <CopySecret secret={secret} />
      <p>
        {tokenTexts.columns.expiresAt}: {expiresAt}
      </p>
    </div>
  );
}

function CopySecret({ secret }: { secret: string }) {
  // Hidden until hydrated: without JavaScript the button would do nothing, and the secret is selectable anyway.
  const [ready, setReady] = useState(false);
  const [said, setSaid] = useState<"copied" | "failed" | null>(null);
  useEffect(() => setReady(true), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setSaid("copied");
    } catch {
      // No clipboard (a page not served over HTTPS) or no permission: the secret selected, for Ctrl+C.
      const target = document.getElementById(SECRET_ID);
      if (target) window.getSelection()?.selectAllChildren(target);
      setSaid("failed");
    }
  }
  return (
    <p className="token-secret__actions">
      <button
        type="button"
        className="button button--secondary button--small token-secret__copy"
        aria-controls={SECRET_ID}
        hidden={!ready}
        onClick={copy}
      >
        {tokenTexts.copy}
      </button>
      <span className="token-secret__copied" aria-live="polite">
        {said === "copied" ? tokenTexts.copied : said === "failed" ? tokenTexts.copyFailed : ""}
      </span>
    </p>
  );
}
