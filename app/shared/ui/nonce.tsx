import { createContext, type ReactNode, useContext } from "react";

/**
 * The per-request CSP nonce, set by entry.server.tsx. In the browser it is empty: browsers hide
 * the nonce attribute after load and scripts added after hydration do not need one.
 */
const NonceContext = createContext<string>("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
