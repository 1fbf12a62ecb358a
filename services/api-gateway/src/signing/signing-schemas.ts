import type { Request } from "express";
import { z } from "zod";

/** The request bodies and parameters of the signing routes (the OpenAPI document describes the same). */
export const ZSignBody = z.object({ method: z.string().min(1).max(64), value: z.string() });
export const ZRejectBody = z.object({
  reason: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export const ZStartBody = z.object({ purpose: z.enum(["sign", "identify"]).default("sign") });
export const ZDocumentId = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number);

/** A form or JSON body; none at all is an empty one. */
export const bodyOf = (req: Request): unknown => req.body ?? {};
