import { buildPdf } from "./pdf";
import { MultipartTemplate } from "./multipart";

export const PDF_BYTES = 100 * 1024;

/** The realistic create request of the bench: three signers in two rounds, two 100 KB PDFs, a cc. */
export function createPayload() {
  return {
    caseFile: {
      title: "Employment contract",
      language: "en",
      reference: "bench",
      signers: [
        {
          name: "Alice Andersen",
          email: "alice@example.com",
          role: "Employee",
          signOrder: 0,
          enableInsecureSigning: true,
          insecureSigningMethods: ["text", "draw"],
        },
        { name: "Bob Berg", email: "bob@example.com", role: "Manager", signOrder: 0, enableInsecureSigning: true, insecureSigningMethods: ["text"] },
        {
          name: "Carla Christensen",
          email: "carla@example.com",
          role: "Director",
          signOrder: 1,
          enableInsecureSigning: true,
          insecureSigningMethods: ["text"],
        },
      ],
      documents: [
        { title: "Contract", name: "contract.pdf", roles: ["Employee", "Manager", "Director"] },
        { title: "Appendix", name: "appendix.pdf", signable: false },
      ],
      ccRecipients: [{ name: "HR", email: "hr@example.com" }],
    },
  };
}

/** The multipart template every create scenario sends (each request gets fresh file nonces). */
export function createTemplate(): MultipartTemplate {
  return new MultipartTemplate(JSON.stringify(createPayload()), [
    { name: "contract.pdf", pdf: buildPdf("Contract", PDF_BYTES) },
    { name: "appendix.pdf", pdf: buildPdf("Appendix", PDF_BYTES) },
  ]);
}
