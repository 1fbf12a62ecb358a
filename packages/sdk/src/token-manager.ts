import { createHash, randomBytes } from "node:crypto";
import { apiErrorFrom, readJson, type Transport } from "./http";
import { ZTokenResponse } from "./schemas";

/** OAuth client credentials (grant `client_credentials`). */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** OAuth client plus API key pair (grant `api_keys`): the secret never leaves the machine, only a digest. */
export interface ApiKeyCredentials extends ClientCredentials {
  apiKey: string;
  apiSecret: string;
}

export type Credentials = ClientCredentials | ApiKeyCredentials;

export const TOKEN_PATH = "/oauth/token";

function isApiKey(c: Credentials): c is ApiKeyCredentials {
  return "apiKey" in c && typeof c.apiKey === "string" && "apiSecret" in c && typeof c.apiSecret === "string";
}

/** The api_keys grant of the contract: digest = base64(sha1(rawNonce + created_at + apiSecret)). */
export function apiKeysGrant(c: ApiKeyCredentials, createdAt = new Date().toISOString(), rawNonce = randomBytes(16)) {
  const digest = createHash("sha1")
    .update(Buffer.concat([rawNonce, Buffer.from(createdAt, "utf8"), Buffer.from(c.apiSecret, "utf8")]))
    .digest("base64");
  return {
    grant_type: "api_keys",
    client_id: c.clientId,
    client_secret: c.clientSecret,
    key: c.apiKey,
    created_at: createdAt,
    nonce: rawNonce.toString("base64"),
    digest,
  };
}

interface CachedToken {
  token: string;
  expiresAtMs: number;
}

/**
 * Holds one access token: reused until `refreshMarginMs` before it expires, then replaced. Concurrent
 * callers that find it stale share one token request. The expiry is taken from `expires_in`, counted
 * from just before the request was sent, so a skewed local clock does not matter.
 */
export class TokenManager {
  private current: CachedToken | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly credentials: Credentials,
    private readonly refreshMarginMs: number,
    private readonly now: () => number,
  ) {}

  get grantType(): "client_credentials" | "api_keys" {
    return isApiKey(this.credentials) ? "api_keys" : "client_credentials";
  }

  /** A token that is valid for at least the refresh margin (or a freshly issued one). */
  async get(): Promise<string> {
    const c = this.current;
    if (c && this.now() < c.expiresAtMs - this.refreshMarginMs) return c.token;
    this.pending ??= this.request().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** After a 401 with `token`: forget it, unless another caller already replaced it. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private async request(): Promise<string> {
    const c = this.credentials;
    const body = isApiKey(c) ? apiKeysGrant(c) : { grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret };
    const requestedAt = this.now();
    const res = await this.transport.send({
      method: "POST",
      path: TOKEN_PATH,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw await apiErrorFrom(res, `POST ${TOKEN_PATH}`);
    const answer = await readJson(res, ZTokenResponse, `POST ${TOKEN_PATH}`);
    this.current = { token: answer.access_token, expiresAtMs: requestedAt + answer.expires_in * 1000 };
    return answer.access_token;
  }
}
