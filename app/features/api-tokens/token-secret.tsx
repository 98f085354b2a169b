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
      <CopyText text={secret} targetId={SECRET_ID} label={tokenTexts.copy} failed={tokenTexts.copyFailed} />
      <p>
        {tokenTexts.columns.expiresAt}: {expiresAt}
      </p>
    </div>
  );
}

/**
 * A button that copies `text` (the content of the element `targetId`) to the clipboard and says so; hidden until
 * hydrated, since without JavaScript it would do nothing and the text is selectable anyway.
 */
export function CopyText(props: { text: string; targetId: string; label: string; failed: string }) {
  const { text, targetId, label, failed } = props;
  const [ready, setReady] = useState(false);
  const [said, setSaid] = useState<"copied" | "failed" | null>(null);
  useEffect(() => setReady(true), []);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setSaid("copied");
    } catch {
      // No clipboard (a page not served over HTTPS) or no permission: the text selected, for Ctrl+C.
      const target = document.getElementById(targetId);
      if (target) window.getSelection()?.selectAllChildren(target);
      setSaid("failed");
    }
  }
  return (
    <p className="token-secret__actions">
      <button
        type="button"
        className="button button--secondary button--small token-secret__copy"
        aria-controls={targetId}
        hidden={!ready}
        onClick={copy}
      >
        {label}
      </button>
      <span className="token-secret__copied" aria-live="polite">
        {said === "copied" ? tokenTexts.copied : said === "failed" ? failed : ""}
      </span>
    </p>
  );
}
