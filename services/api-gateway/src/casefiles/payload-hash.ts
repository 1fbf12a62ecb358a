import { createHash } from "node:crypto";

export interface HashedFile {
  name: string;
  sha256: string;
}

/**
 * payloadHash of the contract: lowercase hex SHA-256 over the `data` string and the uploaded files,
 * deterministic for the same request. Each piece is length-prefixed so that moving bytes between
 * `data` and a file name can never produce the same hash.
 */
export function payloadHash(data: string, files: readonly HashedFile[]): string {
  const h = createHash("sha256");
  const piece = (s: string) => {
    const b = Buffer.from(s, "utf8");
    h.update(`${b.length}:`);
    h.update(b);
  };
  piece(data);
  for (const f of files) {
    piece(f.name);
    piece(f.sha256);
  }
  return h.digest("hex");
}
