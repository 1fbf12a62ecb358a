import { z } from "zod";

// Each field falls back on its own: one unreadable value (a row written by an older version) must not
// throw away the signer's other texts. The create payload already enforced the spec's bounds.
const text = z.string().trim().min(1).nullish().catch(null);

const ZSignerNotificationSettings = z.object({
  emailFormat: z.enum(["text", "html"]).nullish().catch(null),
  emailSubject: text,
  emailText: text,
  reminderInterval: z.number().int().min(1).nullish().catch(null),
  reminderEmailSubject: text,
  reminderEmailText: text,
  completedEmailSubject: text,
  completedEmailText: text,
});

export type SignerNotificationSettings = z.infer<typeof ZSignerNotificationSettings>;

/** Signer.notification (the per-signer texts and reminder settings of the create payload). */
export function signerSettings(json: unknown): SignerNotificationSettings {
  const parsed = ZSignerNotificationSettings.safeParse(json ?? {});
  return parsed.success ? parsed.data : {};
}

/** HTML unless the signer asked for text: only HTML mail can carry the open-tracking image. */
export function emailFormatOf(settings: SignerNotificationSettings): "text" | "html" {
  return settings.emailFormat === "text" ? "text" : "html";
}
