import type { Logger } from "./create-logger";

export type ThrottledLog = (level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>) => void;

/**
 * A log for what repeats while a dependency is away (every reconnect attempt, every request, every
 * job): the first line of each message goes out at once, then at most one per `everyMs`, carrying
 * `repeated`, how many were held back since the last one. Lines stay as informative, an outage of
 * minutes no longer floods the log.
 */
export function throttledLog(logger: Logger, everyMs: number, now: () => number = Date.now): ThrottledLog {
  const seen = new Map<string, { at: number; held: number }>();
  return (level, message, fields = {}) => {
    const last = seen.get(message);
    if (last && now() - last.at < everyMs) {
      last.held += 1;
      return;
    }
    logger.log(level, message, last && last.held > 0 ? { ...fields, repeated: last.held } : fields);
    seen.set(message, { at: now(), held: 0 });
  };
}
