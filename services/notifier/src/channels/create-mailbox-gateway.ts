import type { AppConfig } from "@esign/config";
import { EboksSimulator, type EboksSimulatorLogger } from "./eboks-simulator";
import type { MailboxGateway } from "./mailbox-gateway";

/** The adapter named by EBOKS_GATEWAY; `simulator` is the only one that exists today. */
export function createMailboxGateway(config: Pick<AppConfig, "EBOKS_GATEWAY" | "EBOKS_SIMULATOR_DIR">, logger: EboksSimulatorLogger): MailboxGateway {
  switch (config.EBOKS_GATEWAY) {
    case "simulator":
      return new EboksSimulator(config.EBOKS_SIMULATOR_DIR, logger);
  }
}
