-- The queue dashboard spans every customer: it belongs to platform operators, a role of its own
-- (issue 14), not to every customer's admins.

-- AlterTable
ALTER TABLE "User" ADD COLUMN "isOperator" BOOLEAN NOT NULL DEFAULT false;
