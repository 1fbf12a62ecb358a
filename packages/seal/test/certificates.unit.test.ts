import { X509Certificate, webcrypto } from "node:crypto";
import { certificateDer, issueCertificate } from "../src/pki/certificates";

// OpenSSL (and so Node's X509Certificate, pdfsig and Adobe) refuses a certificate whose serial number
// is not minimal DER. With random serials that showed up as one development seal in ~128 failing to
// load ("PEM routines::no start line"): 600 certificates catch a regression with 99% certainty.
it("issues certificates that OpenSSL parses, whatever random serial number they draw", async () => {
  const keys = (await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const refused: string[] = [];
  for (let i = 0; i < 600; i++) {
    const cert = await issueCertificate({
      subject: { commonName: `Serial test ${i}` },
      subjectKey: keys.publicKey,
      issuerKey: keys.privateKey,
      validFrom: new Date("2026-01-01T00:00:00Z"),
      validTo: new Date("2027-01-01T00:00:00Z"),
      ca: true,
    });
    try {
      new X509Certificate(certificateDer(cert));
    } catch (err) {
      refused.push(`${i}: ${(err as Error).message}`);
    }
  }
  expect(refused).toEqual([]);
});
