import winston from "winston";
import { redact } from "./redact";

export type Logger = winston.Logger;

interface LoggerOptions {
  service: string;
  level?: string;
  format?: "json" | "pretty";
}

// Winston's info object carries symbols for level/message; only the string keys are ours to mask.
const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === "level" || key === "message" || key === "timestamp" || key === "service") continue;
    const masked = redact({ [key]: info[key] }) as Record<string, unknown>;
    (info as Record<string, unknown>)[key] = masked[key];
  }
  return info;
});

/** One logger per process: JSON lines in production, readable lines on a developer's terminal. */
export function createLogger({ service, level = "info", format = "json" }: LoggerOptions): Logger {
  const base = [winston.format.timestamp(), winston.format.errors({ stack: true }), redactFormat()];
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
