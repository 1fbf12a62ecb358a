-- Issue 26 item 6: a signer's CPR number and social security number are kept encrypted with
-- ENCRYPTION_KEY (AES-256-GCM, @esign/db encryptSecret), like the identity provider's national id.
-- SQL cannot encrypt (the key is not in the database), so the columns are renamed here and the values
-- already stored are encrypted in place by the step `pnpm migrate` runs right after the migrations
-- (`pnpm cli secrets reencrypt` does the same by hand): until then a clear value is still read.
ALTER TABLE "Signer" RENAME COLUMN "cpr" TO "cprEnc";
ALTER TABLE "Signer" RENAME COLUMN "socialSecurityNumber" TO "socialSecurityNumberEnc";
