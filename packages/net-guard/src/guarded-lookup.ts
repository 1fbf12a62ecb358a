import dns from "node:dns";
import type { LookupAddress, LookupOptions } from "node:dns";
import type { BlockList } from "node:net";
import { isBlockedAddress } from "./blocked-address";

export class BlockedAddressError extends Error {
  readonly code = "EBLOCKED";
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
    this.name = "BlockedAddressError";
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A drop-in for dns.lookup that refuses non-public answers. Given to the HTTP client, the check runs
 * on the very address the socket connects to, so DNS rebinding between a check and the connect is moot.
 */
export function createGuardedLookup(allowPrivate: boolean, resolve: typeof dns.lookup = dns.lookup, allowed?: BlockList) {
  return function guardedLookup(hostname: string, options: LookupOptions | number | LookupCallback, callback?: LookupCallback): void {
    const cb = (typeof options === "function" ? options : callback) as LookupCallback;
    const opts: LookupOptions = typeof options === "object" ? options : typeof options === "number" ? { family: options } : {};
    resolve(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return cb(err, []);
      const list = addresses as LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find((a) => isBlockedAddress(a.address, allowed));
      if (blocked) return cb(new BlockedAddressError(hostname, blocked.address) as NodeJS.ErrnoException, []);
      if (opts.all) return cb(null, list);
      const first = list[0];
      if (!first) return cb(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), []);
      cb(null, first.address, first.family);
    });
  };
}
