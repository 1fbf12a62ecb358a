import http from "node:http";

/** A keep-alive agent sized so the client never queues requests of an open-model step behind each other. */
export function benchAgent(maxSockets = 1024): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: "fifo" });
}

export interface HttpResult {
  status: number;
  body: string;
}

/** POSTs a body given as chunks (written in order, no concatenation); resolves with status and body. */
export function post(
  agent: http.Agent,
  url: URL,
  headers: Record<string, string | number>,
  chunks: readonly Buffer[] | Buffer | string,
  timeoutMs = 30_000,
): Promise<HttpResult> {
  return exchange(agent, "POST", url, headers, chunks, timeoutMs);
}

/** GETs a URL on the agent's keep-alive connections; resolves with status and body. */
export function get(agent: http.Agent, url: URL, headers: Record<string, string | number>, timeoutMs = 30_000): Promise<HttpResult> {
  return exchange(agent, "GET", url, headers, undefined, timeoutMs);
}

function exchange(
  agent: http.Agent,
  method: "GET" | "POST",
  url: URL,
  headers: Record<string, string | number>,
  chunks: readonly Buffer[] | Buffer | string | undefined,
  timeoutMs: number,
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent, method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
      res.on("error", reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("client timeout"), { code: "ETIMEDOUT" })));
    req.on("error", reject);
    if (Array.isArray(chunks)) {
      for (const c of chunks) req.write(c);
      req.end();
    } else if (chunks === undefined) {
      req.end();
    } else {
      req.end(chunks as Buffer | string);
    }
  });
}

export async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
