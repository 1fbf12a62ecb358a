import { z } from "zod";
import { ZSecureSigningMethod } from "@esign/schema";
import { component } from "../contract/components";

// What the simulator's consent page takes: its contract (simulator-contracts.ts) and its handler
// (idp-simulator-route.ts) both read them from here.

export const ZAuthorize = z.object({
  method: ZSecureSigningMethod,
  state: z.string().min(1).max(4096),
  redirect_uri: z.string().min(1).max(2048),
  ui_locales: z.string().max(64).optional(),
});

export const ZDecision = component(
  "IdpSimulatorDecision",
  ZAuthorize.extend({
    decision: z.enum(["approve", "cancel"]),
    nationalId: z
      .string()
      .trim()
      .max(32)
      .regex(/^[A-Za-z0-9:+-]*$/)
      .optional()
      .transform((v) => (v ? v : null)),
  }),
);
