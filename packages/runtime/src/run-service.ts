import { ConfigError, loadConfig, type AppConfig } from "@esign/config";
import { createLogger, type Logger } from "@esign/logger";
import { beginDrain } from "./drain";
import { initServiceMetrics } from "./metrics/registry";

export interface ServiceContext {
  config: AppConfig;
  logger: Logger;
}

export interface RunningService {
  /** Stops taking work, finishes or hands back what is in flight, closes connections. */
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 15_000;

/**
 * The one way a service process starts: config parsed once (a bad setting exits 1 with every
 * problem named), one logger, one metrics registry labelled with the service name (plus Node's
 * default metrics), clean shutdown on SIGTERM/SIGINT, crashes logged before exiting.
 */
export function runService(name: string, start: (ctx: ServiceContext) => Promise<RunningService>): void {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`[${name}] ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ service: name, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  initServiceMetrics(name);
  // Which mode this is, said once at start: development's keys and permissions must never be a surprise.
  if (config.production) logger.info("production mode", { host: config.HOST });
  else {
    logger.warn("development mode: public development keys, loopback webhooks allowed, writable queue dashboard; for this machine only", {
      host: config.HOST,
      nodeEnv: config.NODE_ENV,
    });
  }
  let running: RunningService | undefined;
  let stopping = false;

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Readiness goes false first (drain.ts); the service keeps working while load balancers notice.
    beginDrain();
    logger.info("shutting down", { signal, drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS });
    if (config.SHUTDOWN_DRAIN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_DELAY_MS));
    const force = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await running?.close();
      logger.info("stopped");
      process.exit(0);
    } catch (err) {
      logger.error("error during shutdown", { err });
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("unhandledRejection", (reason) => logger.error("unhandled rejection", { reason }));

  start({ config, logger })
    .then((svc) => {
      running = svc;
      logger.info("started", { mode: config.mode });
    })
    .catch((err: unknown) => {
      logger.error("failed to start", { err });
      process.exit(1);
    });
}
