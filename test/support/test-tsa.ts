import { createHash, randomBytes, type webcrypto } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { EXT_KEY_USAGE, generateRsaKeyPair, issueCertificate } from "@esign/seal";

/*
 * TEST TIMESTAMP AUTHORITY - for tests only. A real RFC 3161 server on 127.0.0.1 built with pkijs:
 * it parses the TimeStampReq, answers a TimeStampResp whose token is a CMS SignedData over TSTInfo
 * (content-type, message-digest and ESS signing-certificate-v2 signed attributes), signed by a
 * self-issued TSA certificate with the critical timeStamping EKU. It trusts nobody and proves
 * nothing outside a test: it exists so that the PAdES B-T path runs against a real protocol.
 */

const OID = {
  tstInfo: "1.2.840.113549.1.9.16.1.4",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  // A private arc that says "test" in its last arcs; no real policy.
  testPolicy: "1.3.6.1.4.1.55555.7357.1",
} as const;

export interface TestTsa {
  url: string;
  /** Requests answered so far. */
  readonly requests: number;
  /** Makes the next answers a rejection (PKIStatus 2), to test the failure path. */
  rejectRequests(reject: boolean): void;
  close(): Promise<void>;
}

async function stamp(request: Uint8Array, cert: pkijs.Certificate, key: webcrypto.CryptoKey): Promise<Uint8Array> {
  const req = pkijs.TimeStampReq.fromBER(request);
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: OID.testPolicy,
    messageImprint: req.messageImprint,
    serialNumber: new asn1js.Integer({ valueHex: randomBytes(8) }),
    genTime: new Date(),
    accuracy: new pkijs.Accuracy({ seconds: 1 }),
    ...(req.nonce ? { nonce: req.nonce } : {}),
  });
  const tstDer = tstInfo.toSchema().toBER(false);
  const certDer = cert.toSchema().toBER(false);
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: createHash("sha256").update(Buffer.from(certDer)).digest() })] })],
      }),
    ],
  });
  const signed = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.tstInfo, eContent: new asn1js.OctetString({ valueHex: tstDer }) }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })] }),
            new pkijs.Attribute({
              type: OID.messageDigest,
              values: [new asn1js.OctetString({ valueHex: createHash("sha256").update(Buffer.from(tstDer)).digest() })],
            }),
            new pkijs.Attribute({ type: OID.signingCertificateV2, values: [essCertIdV2] }),
          ],
        }),
      }),
    ],
    ...(req.certReq ? { certificates: [cert] } : {}),
  });
  // pkijs's constructor turns eContent into a constructed OCTET STRING, which verifiers (pkijs's own
  // among them) read as empty; TSAs write it primitive, so put the primitive one back.
  signed.encapContentInfo.eContent = new asn1js.OctetString({ valueHex: tstDer });
  await signed.sign(key, 0, "SHA-256");
  const response = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
    timeStampToken: new pkijs.ContentInfo({ contentType: OID.signedData, content: signed.toSchema(true) }),
  });
  return new Uint8Array(response.toSchema().toBER(false));
}

const rejection = (): Uint8Array =>
  new Uint8Array(new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.rejection }) }).toSchema().toBER(false));

/** Starts the test TSA on a free loopback port. */
export async function startTestTsa(): Promise<TestTsa> {
  const keys = await generateRsaKeyPair(2048);
  const now = Date.now();
  const cert = await issueCertificate({
    subject: { commonName: "E-Sign TEST timestamp authority (tests only)", organization: "E-Sign tests" },
    subjectKey: keys.publicKey,
    issuerKey: keys.privateKey,
    validFrom: new Date(now - 3600_000),
    validTo: new Date(now + 24 * 3600_000),
    ca: false,
    extKeyUsage: [EXT_KEY_USAGE.timeStamping],
    extKeyUsageCritical: true,
  });
  let requests = 0;
  let reject = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests++;
      if (req.method !== "POST" || req.headers["content-type"] !== "application/timestamp-query") {
        res.writeHead(400).end();
        return;
      }
      const answer = reject ? Promise.resolve(rejection()) : stamp(Buffer.concat(chunks), cert, keys.privateKey);
      answer.then(
        (der) => res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(Buffer.from(der)),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    get requests() {
      return requests;
    },
    rejectRequests(value: boolean) {
      reject = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
