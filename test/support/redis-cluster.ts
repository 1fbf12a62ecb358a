import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Cluster } from "ioredis";
import { runCommand } from "../../scripts/up/run-command";
import { redisServerArgs } from "./redis-server";

/**
 * A Redis Cluster of the test's own: `masters` redis-servers (`--cluster-enabled yes`, AOF, noeviction)
 * joined by `redis-cli --cluster create` with no replicas. Each node also needs its bus port (port +
 * 10000) free, so the ports are chosen in pairs.
 */
export interface RedisCluster {
  /** Seed nodes as REDIS_CLUSTER_NODES takes them. */
  readonly nodes: string[];
  /** A URL of one node (REDIS_URL, which on a cluster lends only credentials and TLS). */
  readonly url: string;
  stop(): Promise<void>;
}

const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });

/** A port whose bus port (+10000) is free too. */
async function freeNodePort(taken: Set<number>): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20000 + Math.floor(Math.random() * 30000);
    if (taken.has(port) || taken.has(port + 10000)) continue;
    if ((await canListen(port)) && (await canListen(port + 10000))) return port;
  }
  throw new Error("no free port pair for a Redis Cluster node");
}

export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "esign-redis-cluster-"));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < masters; i++) {
    const port = await freeNodePort(taken);
    taken.add(port).add(port + 10000);
    ports.push(port);
  }
  const children: ChildProcess[] = ports.map((port) =>
    spawn(
      "redis-server",
      [
        // One folder for all nodes: each node's files carry its port.
        ...redisServerArgs(port, dir, "everysec"),
        "--dbfilename",
        `dump-${port}.rdb`,
        "--appendfilename",
        `aof-${port}`,
        "--appenddirname",
        `aof-${port}`,
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        `nodes-${port}.conf`,
        "--cluster-node-timeout",
        "2000",
      ],
      { stdio: "ignore" },
    ),
  );
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once("exit", () => resolve());
            c.kill("SIGTERM");
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    // redis-cli waits for nothing: retry while the servers are still starting.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const created = await runCommand("redis-cli", ["--cluster", "create", ...nodes, "--cluster-replicas", "0", "--cluster-yes"]);
      if (created.code === 0) break;
      if (Date.now() > deadline) throw new Error(`redis-cli --cluster create failed:\n${created.output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Every node must agree that all slots are served before clients use it.
    for (;;) {
      const infos = await Promise.all(ports.map((p) => runCommand("redis-cli", ["-p", String(p), "cluster", "info"])));
      if (infos.every((i) => /cluster_state:ok/.test(i.output))) break;
      if (Date.now() > deadline) throw new Error(`cluster not ok:\n${infos.map((i) => i.output).join("\n")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const probe = new Cluster(ports.map((port) => ({ host: "127.0.0.1", port })));
    try {
      await probe.set("{probe}:x", "1");
    } finally {
      probe.disconnect();
    }
    return { nodes, url: `redis://127.0.0.1:${ports[0]}`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
