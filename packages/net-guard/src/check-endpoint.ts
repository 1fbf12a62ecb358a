import dns from "node:dns/promises";
import type { BlockList } from "node:net";
import { isBlockedAddress } from "./blocked-address";
import { isBlockedPort, portOf } from "./blocked-port";

export interface EndpointPolicy {
  /** Production: https only, public addresses only. Development: http and loopback allowed. */
  allowPrivate: boolean;
  requireHttps: boolean;
  /** Private networks allowed all the same (WEBHOOK_ALLOWED_PRIVATE_NETWORKS, see allowedNetworks()). */
  allowedNetworks?: BlockList;
  lookup?: (host: string) => Promise<{ address: string }[]>;
}

export type EndpointCheck = { ok: true; url: URL } | { ok: false; reason: string };

const defaultLookup = (host: string) => dns.lookup(host, { all: true, verbatim: true });

/**
 * Validates a subscription endpoint when it is saved: a clear 400 for an obviously bad URL. The
 * dispatcher checks again on every connection (the resolved address may change).
 */
export async function checkEndpoint(raw: string, policy: EndpointPolicy): Promise<EndpointCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "must use https" };
  if (policy.requireHttps && url.protocol !== "https:") return { ok: false, reason: "must use https" };
  if (url.username || url.password) return { ok: false, reason: "must not contain credentials" };
  if (policy.allowPrivate) return { ok: true, url };
  if (isBlockedPort(portOf(url))) return { ok: false, reason: `port ${portOf(url)} is not a web port (databases, caches, SSH and the like are refused)` };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string }[];
  try {
    addresses = await (policy.lookup ?? defaultLookup)(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  const blocked = addresses.find((a) => isBlockedAddress(a.address, policy.allowedNetworks));
  if (addresses.length === 0 || blocked) return { ok: false, reason: "must resolve to a public address" };
  return { ok: true, url };
}
