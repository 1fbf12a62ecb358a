-- Credentials revoked and rotated (issue 26, item 11): tokens issued before tokensValidAfter are refused.
ALTER TABLE "ApiClient" ADD COLUMN "tokensValidAfter" TIMESTAMPTZ(6);
ALTER TABLE "ApiClient" ADD COLUMN "lastUsedAt" TIMESTAMPTZ(6);
