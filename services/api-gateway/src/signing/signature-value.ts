import { AppError } from "@esign/errors";
import { z } from "zod";
import type { TInsecureSigningMethod } from "@esign/schema";

/**
 * Images must fit the gateway's 100 kB JSON body limit once base64-encoded; a signature drawn on a
 * canvas is a few kB, a photographed one scaled for the web well under this.
 */
export const MAX_SIGNATURE_IMAGE_BYTES = 64 * 1024;
export const MAX_TYPED_NAME_CHARS = 200;

export type SignatureValue = { kind: "text"; name: string } | { kind: "image"; bytes: Buffer; mime: "image/png" | "image/jpeg" };

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

function sniff(bytes: Buffer): "image/png" | "image/jpeg" | null {
  // A PNG's first chunk is always IHDR: checking it rules out a bare magic number glued to junk.
  if (bytes.length > 33 && bytes.subarray(0, 8).equals(PNG) && bytes.subarray(12, 16).toString("latin1") === "IHDR") return "image/png";
  if (bytes.length > 4 && bytes.subarray(0, 3).equals(JPEG)) return "image/jpeg";
  return null;
}

const invalid = (message: string) => new AppError("validation_failed", message, [{ path: "value", code: "invalid_signature_value", message }]);

const DATA_URL = /^data:(image\/(?:png|jpeg));base64,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeImage(raw: string, method: "draw" | "image"): SignatureValue {
  const m = DATA_URL.exec(raw);
  const declared = m?.[1];
  const b64 = (m ? (m[2] ?? "") : raw).replace(/\s+/g, "");
  if (raw.startsWith("data:") && !m) throw invalid("value must be a data URL of type image/png or image/jpeg, or plain base64");
  if (b64.length === 0 || b64.length % 4 !== 0 || !BASE64.test(b64)) throw invalid("value is not valid base64");
  if ((b64.length / 4) * 3 > MAX_SIGNATURE_IMAGE_BYTES + 2) throw invalid(`the image exceeds ${MAX_SIGNATURE_IMAGE_BYTES} bytes`);
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length > MAX_SIGNATURE_IMAGE_BYTES) throw invalid(`the image exceeds ${MAX_SIGNATURE_IMAGE_BYTES} bytes`);
  const mime = sniff(bytes);
  if (!mime) throw invalid("the image is neither a PNG nor a JPEG (checked by content)");
  if (declared && declared !== mime) throw invalid(`the data URL says ${declared} but the content is ${mime}`);
  if (method === "draw" && mime !== "image/png") throw invalid("a drawn signature must be a PNG");
  return { kind: "image", bytes, mime };
}

const ZTypedName = z.string().trim().min(1).max(MAX_TYPED_NAME_CHARS);

/** The value of an insecure signature: the typed name for text, a checked PNG/JPEG for draw and image. */
export function parseSignatureValue(method: TInsecureSigningMethod, value: string): SignatureValue {
  if (method === "text") {
    const name = ZTypedName.safeParse(value);
    if (!name.success) throw invalid(`the typed name must be 1 to ${MAX_TYPED_NAME_CHARS} characters`);
    // Control characters would end up in the signature page of the final PDF.
    if (/[\u0000-\u001f\u007f]/.test(name.data)) throw invalid("the typed name contains control characters");
    return { kind: "text", name: name.data };
  }
  return decodeImage(value, method);
}
