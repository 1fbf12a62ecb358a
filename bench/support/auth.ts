import type { CustomerCredentials } from "@esign/accounts";
import { postJson } from "./http";

/** An access token from the gateway's own /oauth/token (client_credentials), as integrators get one. */
export async function accessToken(gatewayUrl: string, creds: CustomerCredentials): Promise<string> {
  const res = await postJson<{ access_token?: string }>(`${gatewayUrl}/oauth/token`, {
    grant_type: "client_credentials",
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
  });
  if (res.status !== 200 || !res.body.access_token) throw new Error(`token request answered ${res.status}`);
  return res.body.access_token;
}
