/**
 * Ports of services that are not web servers: a webhook aimed at one (an internal Redis, a
 * database, SSH, a cluster's API) is an attempt to talk to it through us. Refused in production,
 * with every port below 1024 but 80 and 443.
 */
const NON_WEB_PORTS = new Set([
  1433, 1521, 2049, 2375, 2376, 2379, 2380, 3306, 3389, 4369, 5432, 5672, 5900, 5984, 6379, 6443, 7000, 7001, 8086, 8500, 8600, 9000, 9042, 9092, 9200, 9300,
  10250, 10255, 11211, 15672, 25672, 27017, 27018, 28017,
]);

/** The URL's port, the scheme's default when none is written. */
export function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

export function isBlockedPort(port: number): boolean {
  if (port === 80 || port === 443) return false;
  return port < 1024 || NON_WEB_PORTS.has(port);
}
