import http from "node:http";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Sends exactly the given bytes with exactly the given headers (no FormData, no fetch normalisation),
 * so a test can send bodies that no well-behaved client would: truncated or garbage multipart.
 */
export function rawPost(url: string, headers: Record<string, string | number>, body: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Starts an upload that announces `declaredLength` bytes, sends only `body`, then drops the connection:
 * a client that dies mid-upload. Resolves once the socket is closed.
 */
export function abortedPost(url: string, headers: Record<string, string | number>, body: Buffer, declaredLength: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: "POST", headers: { ...headers, "content-length": declaredLength } });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.on("response", (res) => {
      res.resume();
      req.destroy();
    });
    req.write(body, () => setTimeout(() => req.destroy(), 200));
  });
}

/** A multipart body built by hand, part by part. */
export function multipartBody(boundary: string, parts: { name: string; filename?: string; type?: string; content: Buffer | string }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(p.content), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
