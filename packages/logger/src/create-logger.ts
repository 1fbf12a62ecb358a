import winston from "winston";
import { currentLogContext } from "./log-context";
import { redact, scrubString } from "./redact";

export type Logger = winston.Logger;

interface LoggerOptions {
  service: string;
  level?: string;
  format?: "json" | "pretty";
}

// Fields of the surrounding log context (a worker's job, say) that the line does not set itself.
const contextFormat = winston.format((info) => {
  const fields = currentLogContext();
  if (fields) {
    const target = info as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields)) if (target[key] === undefined) target[key] = value;
  }
  return info;
});

// Winston's info object carries symbols for level/message; only the string keys are ours to mask.
const redactFormat = winston.format((info) => {
  const target = info as Record<string, unknown>;
  for (const key of Object.keys(info)) {
    if (key === "level" || key === "timestamp" || key === "service") continue;
    // The message is text, not a bag of keys: only credentials inside it are masked.
    if (key === "message") {
      if (typeof target.message === "string") target.message = scrubString(target.message);
      continue;
    }
    const masked = redact({ [key]: target[key] }) as Record<string, unknown>;
    target[key] = masked[key];
  }
  return info;
});

/** One logger per process: JSON lines in production, readable lines on a developer's terminal. */
export function createLogger({ service, level = "info", format = "json" }: LoggerOptions): Logger {
  const base = [winston.format.timestamp(), winston.format.errors({ stack: true }), contextFormat(), redactFormat()];
  const output =
    format === "json"
      ? winston.format.json()
      : winston.format.printf(({ timestamp, level: lvl, message, service: svc, ...rest }) => {
          const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : "";
          return `${String(timestamp)} ${lvl} [${String(svc)}] ${String(message)}${extra}`;
        });
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(...base, output),
    transports: [new winston.transports.Console({ stderrLevels: ["error", "warn"] })],
  });
}
