/**
 * Incoming headers in the shape of Node's `IncomingHttpHeaders`: a record of header name to
 * value, where a name may be in any case and a repeated header may arrive as an array.
 */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Case-insensitive header lookup. Repeated values (an array, or several keys differing only in
 * case) are combined with ", " as HTTP does for repeated fields. An absent header gives undefined.
 */
export function getHeader(headers: HeaderRecord, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    if (typeof value === "string") values.push(value);
    else values.push(...value);
  }
  return values.length === 0 ? undefined : values.join(", ");
}
