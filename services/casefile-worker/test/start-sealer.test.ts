import { loadConfig } from "@esign/config";
import { createLogger } from "@esign/logger";
import { closeTestDb, testDb } from "../../../test/support/api";
import { startSealer } from "../src/domain/start-sealer";

afterAll(async () => {
  await closeTestDb();
});

// Replicas start together: each records the seal's certificate, and none may fail its start for it
// (the replica suite saw a second casefile-worker exit on the certificate's primary key).
it("records the seal's certificate once when several workers start at the same moment", async () => {
  const config = loadConfig(process.env);
  const logger = createLogger({ service: "start-sealer-test", level: "error" });
  const first = await startSealer(config, testDb(), logger);
  await testDb().sealCertificate.deleteMany({ where: { sha256: first.certificateSha256 } });
  const sealers = await Promise.all(Array.from({ length: 6 }, () => startSealer(config, testDb(), logger)));
  expect(new Set(sealers.map((s) => s.certificateSha256))).toEqual(new Set([first.certificateSha256]));
  expect(await testDb().sealCertificate.count({ where: { sha256: first.certificateSha256 } })).toBe(1);
});
