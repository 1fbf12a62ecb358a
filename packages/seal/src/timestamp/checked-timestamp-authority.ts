import { timingSafeEqual } from "node:crypto";
import { HttpTimestampAuthority, type DigestAlgorithm, type TimestampAuthority } from "@libpdf/core";
import { readTimestampToken } from "./timestamp-token";

export class TimestampRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TimestampRejected";
  }
}

/**
 * LibPDF's RFC 3161 client, plus the checks it leaves to the caller: the token must be signed
 * validly and stamp exactly the digest we sent. A wrong or replayed token would otherwise be
 * embedded as if it proved the time.
 */
export class CheckedTimestampAuthority implements TimestampAuthority {
  private readonly http: HttpTimestampAuthority;

  constructor(
    readonly url: string,
    timeoutMs = 15_000,
  ) {
    this.http = new HttpTimestampAuthority(url, { timeout: timeoutMs });
  }

  async timestamp(digest: Uint8Array, algorithm: DigestAlgorithm): Promise<Uint8Array> {
    const token = await this.http.timestamp(digest, algorithm);
    const info = await readTimestampToken(token);
    if (!info.signatureValid) throw new TimestampRejected(`the timestamp from ${this.url} does not verify`);
    const imprint = info.sha256Imprint;
    if (algorithm !== "SHA-256" || !imprint || imprint.length !== digest.length || !timingSafeEqual(imprint, digest)) {
      throw new TimestampRejected(`the timestamp from ${this.url} stamps another digest than the one sent`);
    }
    return token;
  }
}
