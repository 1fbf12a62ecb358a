import { randomBytes } from "node:crypto";
import { ConfigError, loadConfig } from "../src";

// The public development keys, as they stand in load-config.ts.
const DEV_JWT_SECRET = "development-only-jwt-secret-do-not-use-in-production";
const DEV_ENCRYPTION_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

const production = {
  NODE_ENV: "production",
  JWT_SECRET: "a-real-production-jwt-secret-0123456789",
  ENCRYPTION_KEY: "9325e83fc7c7c11817299d67f09d4cb773420fcde4d51d61ca3b7d1725bd77d3",
  METRICS_TOKEN: "a-real-metrics-token",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe("production fails closed", () => {
  it("starts with real secrets and a metrics token", () => {
    expect(problemsOf(production)).toEqual([]);
    expect(loadConfig(production).production).toBe(true);
  });

  it("refuses the public development JWT_SECRET and ENCRYPTION_KEY (in any case)", () => {
    expect(problemsOf({ ...production, JWT_SECRET: DEV_JWT_SECRET })).toEqual([expect.stringMatching(/^JWT_SECRET: the development key is public/)]);
    expect(problemsOf({ ...production, ENCRYPTION_KEY: DEV_ENCRYPTION_KEY.toUpperCase() })).toEqual([
      expect.stringMatching(/^ENCRYPTION_KEY: the development key is public/),
    ]);
  });

  it("refuses to serve /metrics without METRICS_TOKEN, unless metrics are off", () => {
    const { METRICS_TOKEN: _omitted, ...noToken } = production;
    expect(problemsOf(noToken)).toEqual([expect.stringMatching(/^METRICS_TOKEN: required in production/)]);
    expect(problemsOf({ ...noToken, METRICS_ENABLED: "false" })).toEqual([]);
  });
});

describe("production refuses typed keys and a public origin in clear (issue 26, item 10)", () => {
  it.each([
    ["JWT_SECRET", "a".repeat(40)],
    ["JWT_SECRET", "abcabcabcabcabcabcabcabcabcabcabcabc"],
    ["JWT_SECRET", "abcdefghijklmnopqrstuvwxyzabcdefghij"],
    ["ENCRYPTION_KEY", "0".repeat(64)],
    ["ENCRYPTION_KEY", "7e57".repeat(16)],
    ["ENCRYPTION_KEY", "0123456789abcdef".repeat(4)],
  ])("refuses %s=%s", (name, value) => {
    expect(problemsOf({ ...production, [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name}: too weak for production`))]);
  });

  it("takes drawn keys (openssl rand -hex 32, base64 of 36 bytes)", () => {
    for (let i = 0; i < 200; i++) {
      const env = { ...production, JWT_SECRET: randomBytes(36).toString("base64url"), ENCRYPTION_KEY: randomBytes(32).toString("hex") };
      expect(problemsOf(env)).toEqual([]);
    }
  });

  it("refuses a public origin that is not https, and HOST=0.0.0.0 without PUBLIC_BASE_URL", () => {
    expect(problemsOf({ ...production, PUBLIC_BASE_URL: "http://esign.example.com" })).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL: must be https in production/),
    ]);
    expect(problemsOf({ ...production, HOST: "0.0.0.0" })).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL: required in production when HOST is not loopback/),
    ]);
    expect(problemsOf({ ...production, HOST: "::" })).toHaveLength(1);
    expect(problemsOf({ ...production, HOST: "0.0.0.0", PUBLIC_BASE_URL: "https://esign.example.com" })).toEqual([]);
    // Loopback reaches this machine only (tests, a local proxy): no cookie or link leaves it in clear.
    expect(problemsOf({ ...production, PUBLIC_BASE_URL: "http://127.0.0.1:3000" })).toEqual([]);
    expect(problemsOf(production)).toEqual([]);
  });
});

describe("development mode is for this machine only", () => {
  it.each(["development", "test", undefined])("NODE_ENV=%s is development mode, on loopback by default", (nodeEnv) => {
    const config = loadConfig(nodeEnv ? { NODE_ENV: nodeEnv } : {});
    expect(config.mode).toBe("development");
    expect(config.HOST).toBe("127.0.0.1");
  });

  it.each(["0.0.0.0", "::", "192.168.1.5", "esign.example.com"])("refuses HOST=%s in development mode", (host) => {
    expect(problemsOf({ HOST: host })).toEqual([expect.stringMatching(/^HOST: development mode \(NODE_ENV=development\) listens on loopback only/)]);
    expect(problemsOf({ NODE_ENV: "test", HOST: host })).toHaveLength(1);
  });

  it("takes loopback spellings, and a network only when ALLOW_DEVELOPMENT_ON_NETWORK=true", () => {
    for (const host of ["127.0.0.1", "127.0.1.1", "::1", "localhost"]) expect(problemsOf({ HOST: host })).toEqual([]);
    expect(problemsOf({ HOST: "0.0.0.0", ALLOW_DEVELOPMENT_ON_NETWORK: "true" })).toEqual([]);
    expect(problemsOf({ ...production, HOST: "0.0.0.0", PUBLIC_BASE_URL: "https://esign.example.com" })).toEqual([]);
  });
});

describe("OUTBOX_RELAY_SERVICES", () => {
  it("runs the relay in the casefile-worker unless told otherwise", () => {
    expect(loadConfig({}).OUTBOX_RELAY_SERVICES).toEqual(["casefile-worker"]);
    expect(loadConfig({ OUTBOX_RELAY_SERVICES: "casefile-worker, webhook-dispatcher" }).OUTBOX_RELAY_SERVICES).toEqual([
      "casefile-worker",
      "webhook-dispatcher",
    ]);
    expect(loadConfig({ OUTBOX_RELAY_SERVICES: "none" }).OUTBOX_RELAY_SERVICES).toEqual([]);
  });

  it("names a service that has no relay as a problem", () => {
    expect(problemsOf({ OUTBOX_RELAY_SERVICES: "notifier" }).join("\n")).toMatch(/OUTBOX_RELAY_SERVICES/);
  });
});

describe("Redis Cluster and PgBouncer settings", () => {
  it("takes seed nodes and requires a hash-tagged QUEUE_PREFIX with them", () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: "10.0.0.1:6379, redis-2.internal:7000", QUEUE_PREFIX: "{esign}" });
    expect(config.REDIS_CLUSTER_NODES).toEqual(["10.0.0.1:6379", "redis-2.internal:7000"]);
    expect(problemsOf({ REDIS_CLUSTER_NODES: "10.0.0.1:6379" }).join("\n")).toMatch(
      /QUEUE_PREFIX: on Redis Cluster it must carry a hash tag, e\.g\. "\{esign\}"/,
    );
    expect(problemsOf({ REDIS_CLUSTER_NODES: "10.0.0.1" }).join("\n")).toMatch(/REDIS_CLUSTER_NODES: must be host:port/);
    // Without a cluster any prefix goes, a hash-tagged one too.
    expect(loadConfig({ QUEUE_PREFIX: "{esign}" }).QUEUE_PREFIX).toBe("{esign}");
    expect(loadConfig({}).REDIS_CLUSTER_NODES).toBeUndefined();
  });

  it("keeps the session URL and pool size unset unless given", () => {
    expect(loadConfig({}).DATABASE_SESSION_URL).toBeUndefined();
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_SIZE: "25" }).DATABASE_POOL_SIZE).toBe(25);
    expect(problemsOf({ DATABASE_POOL_SIZE: "0" }).join("\n")).toMatch(/DATABASE_POOL_SIZE/);
  });
});

describe("empty values", () => {
  it("treats an empty setting as unset, as compose's TSA_URL:- default passes it", () => {
    expect(loadConfig({ TSA_URL: "", PORT: "", SMTP_URL: "" }).TSA_URL).toBeUndefined();
    expect(loadConfig({ PORT: "" }).PORT).toBe(3000);
    expect(problemsOf({ ...production, JWT_SECRET: "" }).join("\n")).toMatch(/JWT_SECRET: required in production/);
  });
});

describe("documents in object storage", () => {
  it("keeps the local folder unless told otherwise", () => {
    const c = loadConfig({});
    expect(c.STORAGE_BACKEND).toBe("local");
    expect(c.S3_FORCE_PATH_STYLE).toBe(false);
  });

  it("wants a bucket with s3, and both static credentials or neither", () => {
    expect(problemsOf({ STORAGE_BACKEND: "s3" })).toEqual(["S3_BUCKET: required when STORAGE_BACKEND=s3"]);
    expect(problemsOf({ STORAGE_BACKEND: "s3", S3_BUCKET: "docs", S3_ACCESS_KEY_ID: "AKIA" })).toEqual([
      "S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither (the AWS SDK's own credentials)",
    ]);
    expect(problemsOf({ STORAGE_BACKEND: "s3", S3_BUCKET: "docs" })).toEqual([]);
    expect(problemsOf({ STORAGE_BACKEND: "nfs" })[0]).toMatch(/^STORAGE_BACKEND: /);
    expect(problemsOf({ S3_ENDPOINT: "ftp://store" })[0]).toMatch(/^S3_ENDPOINT: /);
  });

  it("addresses the bucket in the path for an endpoint of its own, unless told otherwise", () => {
    const s3 = { STORAGE_BACKEND: "s3", S3_BUCKET: "docs" };
    expect(loadConfig({ ...s3, S3_ENDPOINT: "http://127.0.0.1:9000" }).S3_FORCE_PATH_STYLE).toBe(true);
    expect(loadConfig({ ...s3, S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "false" }).S3_FORCE_PATH_STYLE).toBe(false);
    expect(loadConfig(s3).S3_FORCE_PATH_STYLE).toBe(false);
  });
});

describe("webhook endpoints in private networks", () => {
  it("takes CIDR networks in production, where WEBHOOK_ALLOW_PRIVATE is refused", () => {
    const c = loadConfig({ ...production, WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "10.20.0.0/16, 127.0.0.1/32,fd00::/8" });
    expect(c.WEBHOOK_ALLOWED_PRIVATE_NETWORKS).toEqual(["10.20.0.0/16", "127.0.0.1/32", "fd00::/8"]);
    expect(c.WEBHOOK_ALLOW_PRIVATE).toBe(false);
  });

  it("names every entry that is not a network", () => {
    expect(problemsOf({ WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "10.0.0.0/33,intranet,10.1.0.0,fd00::/129" })).toEqual([
      'WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "10.0.0.0/33" is not a network in CIDR notation (10.20.0.0/16, 127.0.0.1/32, fd00::/8)',
      'WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "intranet" is not a network in CIDR notation (10.20.0.0/16, 127.0.0.1/32, fd00::/8)',
      'WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "10.1.0.0" is not a network in CIDR notation (10.20.0.0/16, 127.0.0.1/32, fd00::/8)',
      'WEBHOOK_ALLOWED_PRIVATE_NETWORKS: "fd00::/129" is not a network in CIDR notation (10.20.0.0/16, 127.0.0.1/32, fd00::/8)',
    ]);
  });
});

describe("ENCRYPTION_KEYS_PREVIOUS (key rotation)", () => {
  const previous = ["a".repeat(8) + randomBytes(28).toString("hex"), randomBytes(32).toString("hex")];

  it("decrypts with ENCRYPTION_KEY first, then the keys it replaced; encrypts with ENCRYPTION_KEY only", () => {
    const config = loadConfig({ ...production, ENCRYPTION_KEYS_PREVIOUS: ` ${previous[0]!.toUpperCase()} ,${previous[1]}` });
    expect(config.ENCRYPTION_KEYRING).toEqual([production.ENCRYPTION_KEY, previous[0], previous[1]]);
    expect(loadConfig(production).ENCRYPTION_KEYRING).toEqual([production.ENCRYPTION_KEY]);
  });

  it("refuses anything but 64-hex-character keys", () => {
    expect(problemsOf({ ...production, ENCRYPTION_KEYS_PREVIOUS: "abc" })).toEqual([
      "ENCRYPTION_KEYS_PREVIOUS: must be 64-hex-character keys separated by commas",
    ]);
    expect(problemsOf({ ...production, ENCRYPTION_KEYS_PREVIOUS: `${previous[0]},` })).toHaveLength(1);
  });
});
