import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as samlify from "samlify";
import { IDP_CERT, IDP_KEY } from "./test-idp";

/**
 * A real SAML identity provider for browser tests, built on samlify and served over HTTP on its own origin
 * (127.0.0.1, while the portal runs on localhost: the IdP's POST to /saml is cross-site, as in production).
 *
 * - GET /sso: the HTTP-Redirect binding. The AuthnRequest's signature is verified against the SP's metadata
 *   (fetched from the portal's /saml/metadata), then a login page asks who signs in.
 * - POST /sso/login: issues a signed Response for that user (HTTP-POST binding) in a page that posts it to the
 *   portal's assertion consumer at once, as IdPs do.
 * - GET /replay, /tampered, /unsigned: the last Response again, with its assertion altered after signing, or
 *   with its signatures removed, in the same auto-posting page (attacks the portal must refuse).
 */

samlify.setSchemaValidator({ validate: async () => "skipped (test IdP)" });

const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

export type SamlifyIdp = {
  origin: string;
  entryPoint: string;
  /** Where the portal publishes its SP metadata; set once the portal runs. */
  setSpMetadataUrl(url: string): void;
  /** AuthnRequests received, with whether their signature verified. */
  requests: Array<{ id: string; signatureVerified: boolean }>;
  stop(): Promise<void>;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function autoPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join("");
  return `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(action)}">${inputs}<button>Continuar</button></form></body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export async function startSamlifyIdp(): Promise<SamlifyIdp> {
  let spMetadataUrl: string | null = null;
  let sp: ReturnType<typeof samlify.ServiceProvider> | null = null;
  type RequestInfo = Parameters<ReturnType<typeof samlify.IdentityProvider>["createLoginResponse"]>[1];
  const pending = new Map<string, { requestInfo: RequestInfo; relayState: string }>();
  const requests: SamlifyIdp["requests"] = [];
  let last: { acs: string; samlResponse: string; relayState: string } | null = null;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idp = samlify.IdentityProvider({
    entityID: `${origin}/metadata`,
    privateKey: IDP_KEY,
    signingCert: IDP_CERT,
    nameIDFormat: [EMAIL_FORMAT],
    wantAuthnRequestsSigned: true,
    singleSignOnService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", Location: `${origin}/sso` }],
  });

  async function serviceProvider() {
    if (sp) return sp;
    if (!spMetadataUrl) throw new Error("the SP metadata URL is not set");
    const metadata = await (await fetch(spMetadataUrl)).text();
    sp = samlify.ServiceProvider({ metadata });
    return sp;
  }

  const send = (res: http.ServerResponse, status: number, html: string) => {
    res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(html);
  };

  server.on("request", (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", origin);
      try {
        if (req.method === "GET" && url.pathname === "/sso") {
          // The signature covers the raw octets SAMLRequest=…&RelayState=…&SigAlg=… as the SP sent them.
          const raw = (url.search.replace(/^\?/, "").split("&") ?? [])
            .filter((p) => /^(SAMLRequest|RelayState|SigAlg)=/.test(p))
            .join("&");
          const query = Object.fromEntries(url.searchParams.entries());
          let requestInfo: Awaited<ReturnType<typeof idp.parseLoginRequest>>;
          try {
            requestInfo = await idp.parseLoginRequest(await serviceProvider(), "redirect", { query, octetString: raw });
          } catch (error) {
            requests.push({ id: "", signatureVerified: false });
            return send(res, 400, `<p>AuthnRequest refused: ${escapeHtml(String(error))}</p>`);
          }
          requests.push({ id: String(requestInfo.extract.request?.id ?? ""), signatureVerified: true });
          const sid = crypto.randomUUID();
          pending.set(sid, {
            requestInfo: requestInfo as unknown as RequestInfo,
            relayState: url.searchParams.get("RelayState") ?? "",
          });
          return send(
            res,
            200,
            `<!doctype html><html lang="en"><body><h1>Test IdP</h1><form method="post" action="/sso/login"><input type="hidden" name="sid" value="${sid}"><label>IdP e-mail <input name="email" type="email"></label><button>Sign in at the IdP</button></form></body></html>`,
          );
        }
        if (req.method === "POST" && url.pathname === "/sso/login") {
          const form = await readForm(req);
          const entry = pending.get(form.get("sid") ?? "");
          if (!entry) return send(res, 400, "<p>unknown login</p>");
          pending.delete(form.get("sid") ?? "");
          const context = (await idp.createLoginResponse(
            await serviceProvider(),
            entry.requestInfo,
            "post",
            { email: form.get("email") ?? "" },
            {
              relayState: entry.relayState,
            },
          )) as { context: string; entityEndpoint: string; relayState?: string };
          last = { acs: context.entityEndpoint, samlResponse: context.context, relayState: entry.relayState };
          return send(
            res,
            200,
            autoPostPage(last.acs, { SAMLResponse: last.samlResponse, RelayState: last.relayState }),
          );
        }
        if (req.method === "GET" && ["/replay", "/tampered", "/unsigned"].includes(url.pathname)) {
          if (!last) return send(res, 400, "<p>no response yet</p>");
          let samlResponse = last.samlResponse;
          if (url.pathname === "/tampered") {
            // Another user's e-mail in a signed assertion: the signature no longer matches its content.
            const xml = Buffer.from(samlResponse, "base64").toString("utf8");
            const altered = xml.replace(/(<saml:NameID[^>]*>)[^<]+(<\/saml:NameID>)/, "$1sysadmin@demo.local$2");
            if (altered === xml) throw new Error("could not alter the assertion");
            samlResponse = Buffer.from(altered, "utf8").toString("base64");
          }
          if (url.pathname === "/unsigned") {
            // The same response with every signature removed.
            const xml = Buffer.from(samlResponse, "base64").toString("utf8");
            const stripped = xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, "");
            if (stripped === xml) throw new Error("the response carried no signature to remove");
            samlResponse = Buffer.from(stripped, "utf8").toString("base64");
          }
          return send(res, 200, autoPostPage(last.acs, { SAMLResponse: samlResponse, RelayState: last.relayState }));
        }
        send(res, 404, "<p>not found</p>");
      } catch (error) {
        send(
          res,
          500,
          `<pre>${escapeHtml(error instanceof Error ? (error.stack ?? error.message) : String(error))}</pre>`,
        );
      }
    })();
  });

  return {
    origin,
    entryPoint: `${origin}/sso`,
    setSpMetadataUrl: (u) => {
      spMetadataUrl = u;
      sp = null;
    },
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
