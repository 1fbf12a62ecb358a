import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { MailboxGateway, MailboxMessage, MailboxReceipt } from "./mailbox-gateway";

export interface EboksSimulatorLogger {
  info(message: string, meta?: Record<string, unknown>): unknown;
  warn(message: string, meta?: Record<string, unknown>): unknown;
}

/** What one simulator file holds. */
export interface EboksSimulatorFile extends MailboxMessage {
  simulator: true;
  notice: string;
  messageId: string;
  deliveredAt: string;
}

const NOTICE = "Written by the e-Boks SIMULATOR for development and tests. No real e-Boks mailbox was reached.";

/**
 * NOT e-Boks. A development stand-in for the electronic mailbox channel: every message becomes one JSON
 * file in EBOKS_SIMULATOR_DIR (recipient, language, subject, body, link), and nothing leaves the
 * machine. It says so in the log at start and for every message, so nobody mistakes it for delivery.
 */
export class EboksSimulator implements MailboxGateway {
  readonly name = "eboks-simulator";

  constructor(
    private readonly dir: string,
    private readonly logger: EboksSimulatorLogger,
  ) {
    logger.warn("e-Boks SIMULATOR in use: mailbox messages are written to a folder, no real e-Boks mailbox is reached", { dir });
  }

  async deliver(message: MailboxMessage): Promise<MailboxReceipt> {
    await mkdir(this.dir, { recursive: true });
    const id = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}`;
    const messageId = `eboks-sim-${id}`;
    const file = path.join(this.dir, `${id}.json`);
    const content: EboksSimulatorFile = { simulator: true, notice: NOTICE, messageId, deliveredAt: new Date().toISOString(), ...message };
    // Temporary name first: whoever watches the folder never reads half a message. The file holds a
    // CPR number, so it is readable by its owner only.
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(content, null, 2)}\n`, { flag: "wx", mode: 0o600 });
    await rename(tmp, file);
    this.logger.info("e-Boks SIMULATOR: message written to a file, not delivered to any real mailbox", { file, messageId });
    return { messageId };
  }
}
