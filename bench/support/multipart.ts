import { randomBytes } from "node:crypto";
import { nonce, type NoncePdf } from "./pdf";

export interface MultipartFile {
  name: string;
  pdf: NoncePdf;
}

/**
 * A create request's multipart body as a list of shared buffers plus one fresh nonce per file, so a
 * request costs two 32-byte allocations instead of copying 200 KB. Every request uploads different
 * file contents (different SHA-256), as real clients do.
 */
export class MultipartTemplate {
  readonly boundary = `----esignbench${randomBytes(12).toString("hex")}`;
  readonly contentType = `multipart/form-data; boundary=${this.boundary}`;
  readonly contentLength: number;
  private readonly segments: (Buffer | number)[] = [];

  constructor(data: string, files: readonly MultipartFile[]) {
    const b = this.boundary;
    let text = `--${b}\r\nContent-Disposition: form-data; name="data"\r\n\r\n${data}\r\n`;
    files.forEach((f, i) => {
      text += `--${b}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/pdf\r\n\r\n`;
      this.segments.push(Buffer.from(text, "utf8"), f.pdf.bytes.subarray(0, f.pdf.nonceOffset), i);
      text = "";
      const rest = f.pdf.bytes.subarray(f.pdf.nonceOffset + f.pdf.nonceLength);
      this.segments.push(Buffer.concat([rest, Buffer.from("\r\n")]));
    });
    this.segments.push(Buffer.from(`${text}--${b}--\r\n`, "utf8"));
    this.contentLength = this.segments.reduce<number>((n, s) => n + (typeof s === "number" ? files[s]!.pdf.nonceLength : s.length), 0);
  }

  /** The chunks of one request, each file with a new nonce. */
  chunks(): Buffer[] {
    const nonces = new Map<number, Buffer>();
    return this.segments.map((s) => {
      if (typeof s !== "number") return s;
      let n = nonces.get(s);
      if (!n) nonces.set(s, (n = nonce()));
      return n;
    });
  }
}
