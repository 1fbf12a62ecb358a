import { createLogger } from "../src";
import { throttledLog } from "../src/throttled-log";

const MESSAGE = Symbol.for("message");

describe("throttledLog", () => {
  it("logs each message at once, then once per interval with how many were held back", () => {
    const logger = createLogger({ service: "throttle-test", format: "json", level: "info" });
    for (const t of logger.transports) t.silent = true;
    const lines: Record<string, unknown>[] = [];
    logger.on("data", (info: Record<string | symbol, unknown>) => lines.push(JSON.parse(String(info[MESSAGE])) as Record<string, unknown>));
    let clock = 0;
    const log = throttledLog(logger, 1000, () => clock);

    log("warn", "redis connection error", { error: "a" });
    log("warn", "redis connection error", { error: "b" });
    log("error", "worker error", { queue: "casefile" });
    clock = 999;
    log("warn", "redis connection error", { error: "c" });
    clock = 1000;
    log("warn", "redis connection error", { error: "d" });
    clock = 5000;
    log("warn", "redis connection error", { error: "e" });

    expect(lines.map((l) => [l.level, l.message, l.error ?? l.queue, l.repeated])).toEqual([
      ["warn", "redis connection error", "a", undefined],
      ["error", "worker error", "casefile", undefined],
      ["warn", "redis connection error", "d", 2],
      ["warn", "redis connection error", "e", undefined],
    ]);
  });
});
