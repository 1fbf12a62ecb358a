import path from "node:path";
import type { Server } from "node:http";
import { throttledLog } from "@esign/logger";
import { EnqueueBacklog, Producer, createRedis } from "@esign/queue";
import { openDatabase, recoveryMetrics, runService } from "@esign/runtime";
import { LocalFileStorage } from "@esign/storage";
import { PdfInspector } from "@esign/pdf-inspect";
import { buildApp } from "./app";

runService("api-gateway", async ({ config, logger }) => {
  const db = openDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const redis = createRedis(config, "producer");
  // Every reconnect attempt fails while Redis is away (two a second): one line per 10 s says so.
  const redisLog = throttledLog(logger, 10_000);
  redis.on("error", (err) => redisLog("warn", "redis connection error", { error: err.message }));
  const producer = new Producer(redis, config.QUEUE_PREFIX);
  const enqueueBacklog = new EnqueueBacklog({ producer, connection: redis, logger, name: "create_enqueues", metrics: recoveryMetrics() });
  const storage = new LocalFileStorage(path.resolve(config.STORAGE_DIR));
  const pdfInspector = new PdfInspector({
    processes: config.PDF_INSPECTORS,
    timeoutMs: config.PDF_INSPECT_TIMEOUT_MS,
    onProblem: (message, meta) => logger.warn(message, meta),
  });
  const app = buildApp({ config, logger, db, redis, producer, enqueueBacklog, storage, pdfInspector });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once("error", reject);
  });
  // Uploads stream slowly from real clients; the defaults would cut a 50 MB upload on a slow link.
  server.requestTimeout = 10 * 60 * 1000;
  server.headersTimeout = 30_000;
  logger.info("listening", { url: config.PUBLIC_BASE_URL, port: config.PORT, host: config.HOST });
  return {
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await enqueueBacklog.close();
      await producer.close();
      await pdfInspector.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
});
