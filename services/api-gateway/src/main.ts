import http, { type Server } from "node:http";
import { throttledLog } from "@esign/logger";
import { EnqueueBacklog, Producer, createRedis } from "@esign/queue";
import { closeGracefully, drainAware, openDatabase, recoveryMetrics, runService } from "@esign/runtime";
import { createStorage } from "@esign/storage";
import { buildApp } from "./app";
import { capConnectionsPerAddress } from "./http/connection-cap";
import { createPdfInspector } from "./pdf-inspector";

runService("api-gateway", async ({ config, logger }) => {
  const db = openDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE, {
    countStatements: config.DB_STATEMENT_METRICS,
    preparedStatements: config.DB_PREPARED_STATEMENTS,
  });
  const redis = createRedis(config, "producer");
  // Every reconnect attempt fails while Redis is away (two a second): one line per 10 s says so.
  const redisLog = throttledLog(logger, 10_000);
  redis.on("error", (err) => redisLog("warn", "redis connection error", { error: err.message }));
  const producer = new Producer(redis, config.QUEUE_PREFIX);
  const enqueueBacklog = new EnqueueBacklog({ producer, connection: redis, logger, name: "create_enqueues", metrics: recoveryMetrics() });
  // The folder or the S3 bucket of the settings; a missing bucket or refused credentials stop the start here.
  const storage = await createStorage(config, logger);
  const pdfInspector = createPdfInspector(config, (message, meta) => logger.warn(message, meta));
  const app = buildApp({ config, logger, db, redis, producer, enqueueBacklog, storage, pdfInspector });
  const server: Server = await new Promise((resolve, reject) => {
    // drainAware: on SIGTERM /readyz turns 503 and answers close their connections (packages/runtime/src/drain.ts).
    // Timeouts are checked every second (Node's default: every 30 s, which let slow clients linger a minute).
    const s = http
      .createServer(
        { headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS, requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
        drainAware(app),
      )
      .listen(config.PORT, config.HOST, () => resolve(s));
    s.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
    s.once("error", reject);
  });
  // The cap counts sockets: behind a load balancer (TRUST_PROXY) each is the balancer's, so it caps there.
  if (config.TRUST_PROXY === undefined) {
    capConnectionsPerAddress(server, { perAddress: config.HTTP_MAX_CONNECTIONS_PER_ADDRESS, includeLoopback: config.HTTP_CONNECTION_CAP_LOOPBACK }, logger);
  }
  logger.info("listening", { url: config.PUBLIC_BASE_URL, port: config.PORT, host: config.HOST });
  return {
    async close() {
      // No new connection; the requests in flight are answered first.
      await closeGracefully(server);
      await enqueueBacklog.close();
      await producer.close();
      await pdfInspector.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
});
