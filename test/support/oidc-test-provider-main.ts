// A real OpenID provider (the `oidc-provider` package) for the OpenID Connect adapter's end-to-end
// tests, run as its own process like the services (node --import tsx). It serves HTTPS with a
// certificate of a test CA (the gateway trusts it through NODE_EXTRA_CA_CERTS), keeps everything in
// memory, and has a few test-only controls under /__test (set the client's redirect URI, tamper with
// the next ID token, expire the codes issued so far, list the authorization requests it received).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import * as jose from "jose";
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from "oidc-provider";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const CLIENT_ID = env("OIDC_TEST_CLIENT_ID");
const CLIENT_SECRET = env("OIDC_TEST_CLIENT_SECRET");

/** Everything the provider stores, in memory; codes can be expired on demand. */
const store = new Map<string, AdapterPayload>();
const clientMetadata: AdapterPayload = {
  client_id: CLIENT_ID,
  client_secret: CLIENT_SECRET,
  redirect_uris: ["https://placeholder.invalid/callback"],
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: "client_secret_basic",
};

class MemoryAdapter implements Adapter {
  constructor(private readonly model: string) {}
  private key = (id: string) => `${this.model}:${id}`;
  async upsert(id: string, payload: AdapterPayload): Promise<void> {
    store.set(this.key(id), { ...payload });
  }
  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.model === "Client") return id === CLIENT_ID ? clientMetadata : undefined;
    return store.get(this.key(id));
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return [...store.entries()].find(([k, v]) => k.startsWith(`${this.model}:`) && v.uid === uid)?.[1];
  }
  async consume(id: string): Promise<void> {
    const entry = store.get(this.key(id));
    if (entry) entry.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string): Promise<void> {
    store.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [k, v] of store) if (v.grantId === grantId) store.delete(k);
  }
}

/** accountId -> what the tester typed on the login page: a national id, an email and whether it is verified. */
const people = new Map<string, { nationalId?: string; email?: string; emailVerified: boolean }>();
const authorizationRequests: Record<string, string>[] = [];
let tamper: { claim: string; value: string } | null = null;

async function main(): Promise<void> {
  const server = createServer({ key: readFileSync(env("OIDC_TEST_TLS_KEY")), cert: readFileSync(env("OIDC_TEST_TLS_CERT")) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true });
  const signingJwk = { ...(await jose.exportJWK(privateKey)), kid: "test-signing-key", alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, {
    adapter: (name: string) => new MemoryAdapter(name),
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomUUID()] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    acrValues: ["urn:test:mitid:substantial", "urn:test:bankid-se"],
    claims: { openid: ["sub"], ssn: ["national_id"], email: ["email", "email_verified"], profile: ["name"] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, accountId) {
      const person = people.get(accountId);
      return {
        accountId,
        claims: async () => ({
          sub: accountId,
          national_id: person?.nationalId,
          email: person?.email,
          email_verified: person?.email ? person.emailVerified : undefined,
        }),
      };
    },
    // First-party tests: consent is implied, a grant for the requested scopes is made on the spot.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(" "));
      await grant.save();
      return grant;
    },
  });

  // The authorization requests as received, for the tests to check PKCE, nonce and per-method settings.
  provider.use(async (ctx, next) => {
    if (ctx.path === "/auth" && ctx.method === "GET") authorizationRequests.push({ ...(ctx.query as Record<string, string>) });
    await next();
    // Once, on request: an ID token with one claim changed, properly signed with the provider's key.
    if (ctx.path === "/token" && tamper && ctx.body && typeof ctx.body === "object" && "id_token" in ctx.body) {
      const body = ctx.body as { id_token: string };
      const claims = { ...jose.decodeJwt(body.id_token), [tamper.claim]: tamper.value };
      body.id_token = await new jose.SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: signingJwk.kid }).sign(await jose.importJWK(signingJwk, "RS256"));
      tamper = null;
    }
  });

  const callback = provider.callback();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", issuer);
    const handled = url.pathname.startsWith("/__test/")
      ? control(url, req, res)
      : url.pathname.startsWith("/interaction/")
        ? interaction(provider, url, req, res)
        : null;
    if (handled) handled.catch((err: unknown) => reply(res, 500, { error: String(err) }));
    else callback(req, res);
  });
  process.stdout.write(`OIDC_TEST_PROVIDER_READY ${JSON.stringify({ issuer })}\n`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function control(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = req.method === "POST" ? (JSON.parse((await readBody(req)) || "{}") as Record<string, string>) : {};
  switch (url.pathname) {
    case "/__test/client":
      clientMetadata.redirect_uris = [body.redirectUri ?? ""];
      return reply(res, 204, null);
    case "/__test/tamper":
      tamper = { claim: body.claim ?? "", value: body.value ?? "" };
      return reply(res, 204, null);
    case "/__test/expire-codes":
      for (const [k, v] of store) if (k.startsWith("AuthorizationCode:")) v.exp = Math.floor(Date.now() / 1000) - 60;
      return reply(res, 204, null);
    case "/__test/authorization-requests":
      return reply(res, 200, authorizationRequests);
    default:
      return reply(res, 404, { error: "no such control" });
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's login page: a national id to vouch for (or none), approve or cancel. */
async function interaction(provider: Provider, _url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const params = details.params as Record<string, string | undefined>;
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="${escape(params.ui_locales ?? "en")}"><head><title>Test eID</title></head><body><h1>Test eID broker</h1>` +
        `<form method="post" action="/interaction/${escape(details.uid)}"><label>National id <input name="nationalId"></label>` +
        `<label>Email <input name="email" type="email"></label><label><input name="emailVerified" type="checkbox" value="true" checked> Email verified</label>` +
        `<button name="decision" value="approve">Approve</button><button name="decision" value="cancel">Cancel</button></form></body></html>`,
    );
    return;
  }
  const form = new URLSearchParams(await readBody(req));
  if (form.get("decision") !== "approve") {
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The person cancelled the login" },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = `person-${randomUUID()}`;
  const nationalId = form.get("nationalId")?.trim() || undefined;
  const email = form.get("email")?.trim() || undefined;
  people.set(accountId, { nationalId, email, emailVerified: form.get("emailVerified") === "true" });
  const acr = params.acr_values?.split(" ")[0];
  await provider.interactionFinished(req, res, { login: { accountId, ...(acr ? { acr } : {}) } }, { mergeWithLastSubmission: false });
}

main().catch((err: unknown) => {
  process.stderr.write(`oidc test provider failed: ${String(err)}\n`);
  process.exit(1);
});
