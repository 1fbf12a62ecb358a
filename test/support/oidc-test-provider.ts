import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./services";

/*
 * The tests' OpenID provider (oidc-provider, in its own process: test/support/oidc-test-provider-main.ts)
 * behind HTTPS with a certificate of a throwaway CA made with openssl, and a small browser for the
 * redirect dance: it follows nothing by itself, keeps cookies per host and trusts that CA.
 */

export interface TestCa {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A CA and a server certificate for 127.0.0.1 (EC P-256, one day). */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(path.join(process.env.ESIGN_TEST_DIR ?? os.tmpdir(), "oidc-tls-"));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=E-Sign test CA",
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
  );
  openssl(
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-subj",
    "/CN=127.0.0.1",
    "-keyout",
    file("server.key"),
    "-out",
    file("server.csr"),
  );
  writeFileSync(file("server.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=critical,CA:FALSE\n");
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-days",
    "1",
    "-extfile",
    file("server.ext"),
    "-out",
    file("server.pem"),
  );
  return { dir, caFile: file("ca.pem"), certFile: file("server.pem"), keyFile: file("server.key") };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  location?: string;
}

/** One request, no redirect followed; http or https (trusting `ca`). */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string; ca?: Buffer } = {}): Promise<RawAnswer> {
  const u = new URL(url);
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(u, { method: init.method ?? "GET", headers: init.headers, ...(u.protocol === "https:" ? { ca: init.ca } : {}) }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => {
        const location = typeof res.headers.location === "string" ? new URL(res.headers.location, url).toString() : undefined;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, location });
      });
    });
    req.on("error", reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

/** A browser's worth of state: cookies per host (paths ignored: one signer, one login at a time). */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(private readonly ca: Buffer) {}

  cookie(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string): void {
    const jar = this.jars.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(host, jar);
  }

  async request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const answer = await rawRequest(url, { ...init, headers: { ...(cookie ? { cookie } : {}), ...init.headers }, ca: this.ca });
    const set = answer.headers["set-cookie"] ?? [];
    for (const line of Array.isArray(set) ? set : [set]) {
      const [pair = ""] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (/max-age=0/i.test(line) || /expires=thu, 01 jan 1970/i.test(line) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(host, jar);
    return answer;
  }

  /** Follows redirects (GET) until an answer that is not one, or until `stop` says so for the next address. */
  async follow(url: string, stop: (next: string) => boolean = () => false): Promise<{ url: string; answer: RawAnswer }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const answer = await this.request(current);
      if (!answer.location || answer.status < 300 || answer.status >= 400) return { url: current, answer };
      if (stop(answer.location)) return { url: answer.location, answer };
      current = answer.location;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

export interface OidcTestProvider {
  issuer: string;
  ca: TestCa;
  clientId: string;
  clientSecret: string;
  setRedirectUri(uri: string): Promise<void>;
  /** The next ID token the token endpoint hands out carries this claim value instead (signed as usual). */
  tamperNextIdToken(claim: string, value: string): Promise<void>;
  /** Every authorization code issued so far is past its expiry. */
  expireCodes(): Promise<void>;
  authorizationRequests(): Promise<Record<string, string>[]>;
  stop(): Promise<void>;
}

export async function startOidcTestProvider(): Promise<OidcTestProvider> {
  const ca = makeTestCa();
  const caPem = readFileSync(ca.caFile);
  const clientId = "esign-gateway";
  const clientSecret = "test-client-secret-with-enough-entropy";
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "test/support/oidc-test-provider-main.ts")], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      OIDC_TEST_TLS_CERT: ca.certFile,
      OIDC_TEST_TLS_KEY: ca.keyFile,
      OIDC_TEST_CLIENT_ID: clientId,
      OIDC_TEST_CLIENT_SECRET: clientSecret,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`oidc test provider did not start:\n${output}`)), 30_000);
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
      const m = /OIDC_TEST_PROVIDER_READY (\{.*\})/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve((JSON.parse(m[1]) as { issuer: string }).issuer);
      }
    });
    child.once("exit", (code) => reject(new Error(`oidc test provider exited (${code}):\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const controlCall = async (name: string, body: unknown = {}) => {
    const answer = await rawRequest(`${issuer}/__test/${name}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      ca: caPem,
    });
    if (answer.status >= 300) throw new Error(`control ${name}: ${answer.status} ${answer.body}`);
    return answer;
  };
  return {
    issuer,
    ca,
    clientId,
    clientSecret,
    setRedirectUri: async (redirectUri) => void (await controlCall("client", { redirectUri })),
    tamperNextIdToken: async (claim, value) => void (await controlCall("tamper", { claim, value })),
    expireCodes: async () => void (await controlCall("expire-codes")),
    authorizationRequests: async () =>
      JSON.parse((await rawRequest(`${issuer}/__test/authorization-requests`, { ca: caPem })).body) as Record<string, string>[],
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      rmSync(ca.dir, { recursive: true, force: true });
    },
  };
}
