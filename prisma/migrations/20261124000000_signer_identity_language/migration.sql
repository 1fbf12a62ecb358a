-- Issue 16: signers in their own language, a real eID.
-- The identity an identity provider vouched for is kept with the signature (and with an identity
-- validation before an insecure signature): which provider, which method, the provider's subject,
-- and the national id only where the signer's accessControl needed it, encrypted with ENCRYPTION_KEY.
-- A customer's language is the one of the mails that go to its developers and admins (a disabled
-- webhook subscription); null is English.

-- AlterTable
ALTER TABLE "Customer" ADD COLUMN "language" TEXT;

-- AlterTable
ALTER TABLE "Signer" ADD COLUMN "identityMethod" TEXT,
ADD COLUMN "identitySubject" TEXT,
ADD COLUMN "identityNationalIdEnc" TEXT,
ADD COLUMN "identityVerifiedAt" TIMESTAMPTZ(6);
