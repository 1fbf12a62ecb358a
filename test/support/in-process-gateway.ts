import path from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { loadConfig } from "@esign/config";
import { createPrisma } from "@esign/db";
import { createLogger } from "@esign/logger";
import { EnqueueBacklog, Producer, createRedis } from "@esign/queue";
// Not a root dependency: the gateway's own storage package, by path.
import { LocalFileStorage } from "@esign/storage";
import { buildApp } from "../../services/api-gateway/src/app";
import { createPdfInspector } from "../../services/api-gateway/src/pdf-inspector";

export interface InProcessGateway {
  app: Express;
  url: string;
  close(): Promise<void>;
}

/**
 * The gateway's express app built in this process, wired like main.ts with the run's database,
 * Redis and storage, listening on a free port. For tests that need the app object itself (its
 * router stack); everything else talks to a spawned gateway (services.ts).
 */
export async function startInProcessGateway(env: Record<string, string> = {}): Promise<InProcessGateway> {
  const config = loadConfig({ ...process.env, PORT: "0", ...env });
  const logger = createLogger({ service: "api-gateway-in-process", level: "error", format: "json" });
  const db = createPrisma(config.DATABASE_URL);
  const redis = createRedis(config.REDIS_URL, "producer");
  // The gateway's connection fails fast (no offline queue): closing it while it still connects would
  // make the queues built on it (the dashboard's) report errors after the test.
  if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  const producer = new Producer(redis, config.QUEUE_PREFIX);
  const enqueueBacklog = new EnqueueBacklog({ producer, connection: redis, logger, name: "create_enqueues" });
  const storage = new LocalFileStorage(path.resolve(config.STORAGE_DIR));
  const pdfInspector = createPdfInspector(config);
  const app = buildApp({ config, logger, db, redis, producer, enqueueBacklog, storage, pdfInspector });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await pdfInspector.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await enqueueBacklog.close();
      await producer.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
