import net from "node:net";

// Ranges a webhook must never reach in production: loopback, private, shared, link-local (cloud
// metadata lives at 169.254.169.254), documentation, benchmarking, multicast and reserved space.
const V4 = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const;

const V6 = [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const;

const blockList = new net.BlockList();
for (const [a, p] of V4) blockList.addSubnet(a, p, "ipv4");
for (const [a, p] of V6) blockList.addSubnet(a, p, "ipv6");

/** The IPv4 address an IPv6 address embeds (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96). */
function embeddedV4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] && hex[2]) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/**
 * Private networks an operator lets webhooks reach (WEBHOOK_ALLOWED_PRIVATE_NETWORKS: CIDR strings,
 * already validated by packages/config).
 */
export function allowedNetworks(cidrs: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const cidr of cidrs) {
    const [address = "", bits = ""] = cidr.split("/");
    list.addSubnet(address, Number(bits), net.isIP(address) === 6 ? "ipv6" : "ipv4");
  }
  return list;
}

/**
 * True for any address a production webhook must not be delivered to (and for anything unparsable),
 * unless it lies in one of the `allowed` networks.
 */
export function isBlockedAddress(address: string, allowed?: net.BlockList): boolean {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(ip);
  if (family === 4) return !allowed?.check(ip, "ipv4") && blockList.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedV4(ip);
    if (v4 !== null) return !allowed?.check(v4, "ipv4") && (blockList.check(v4, "ipv4") || isBlockedMappedPublic(ip));
    return !allowed?.check(ip, "ipv6") && blockList.check(ip, "ipv6");
  }
  return true;
}

// An IPv4-compatible/mapped form of a public address is still an odd spelling; only the mapped
// (::ffff:) form is a legitimate way to reach a public IPv4 host from an IPv6 socket.
function isBlockedMappedPublic(ip: string): boolean {
  return !/^::ffff:/i.test(ip);
}
