/**
 * Addresses to mail once each: trimmed, empty and address-less entries dropped, duplicates folded
 * case-insensitively (one person with two accounts, or the creator who is also an admin). The first
 * spelling is kept, since some servers treat the local part as case-sensitive.
 */
export function dedupeAddresses(addresses: Iterable<string | null | undefined>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of addresses) {
    const address = raw?.trim();
    if (!address?.includes("@")) continue;
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(address);
  }
  return out;
}
