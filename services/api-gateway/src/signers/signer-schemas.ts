import { z } from "zod";
import { editErrorMap, ZSigner as ZCreateSigner, ZSignerPatch, ZSigningRequestPatch } from "@esign/schema";
import { component } from "../contract/components";
import { withoutKeys, ZId } from "../contract/common-schemas";

/*
 * What the signer and signing-request routes take (signer-contracts.ts). The fields and their rules
 * are the create payload's (@esign/schema's signer-edits.ts); what is the gateway's own is the
 * read-only keys of an answer that a client sends back with it (Penneo's SDKs PUT what they read:
 * a fetched object PUT back must succeed), which are ignored here. Every other unknown key is a 400.
 */

/** The body's errors in the create payload's words (serve passes it to the parse). */
export const SIGNER_ERROR_MAP = editErrorMap;

const SIGNER_READ_ONLY = ["sdkClassName", "id", "status", "signingRequest", "validatedName", "caseFile"] as const;
const SIGNING_REQUEST_READ_ONLY = ["sdkClassName", "id", "status", "rejectReason", "activated", "opened", "signed", "rejected"] as const;

export const ZSignerAdd = component(
  "SignerAdd",
  ZCreateSigner.describe(
    "A signer as in the create payload's `signers[]` (the SDKs send name, socialSecurityNumberPlain, ssnType, vatin, onBehalfOf, storeAsContact, language)",
  ),
);

export const ZSignerUpdate = component(
  "SignerUpdate",
  z
    .preprocess(withoutKeys(SIGNER_READ_ONLY), ZSignerPatch)
    .describe(`Partial: an absent key is unchanged, null clears; ${SIGNER_READ_ONLY.join(", ")} are read-only and ignored`),
);

export const ZSigningRequestUpdate = component(
  "SigningRequestUpdate",
  z
    .preprocess(withoutKeys(SIGNING_REQUEST_READ_ONLY), ZSigningRequestPatch)
    .describe(`Partial: an absent key is unchanged, null clears; ${SIGNING_REQUEST_READ_ONLY.join(", ")} are read-only and ignored`),
);

export const ZSigningRequestParams = z.object({ id: ZId });

export const ZSigningLinkList = component(
  "SigningLinkList",
  z.array(z.string()).describe("One element: the signer's signing link (sdk-net GetLinkAsync, sdk-php getLink read [0])"),
);
