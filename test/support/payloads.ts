/** A realistic, valid create payload: two signers, two documents (names match the uploaded files). */
export function validCaseFile(overrides: Record<string, unknown> = {}) {
  return {
    caseFile: {
      title: "Employment contract",
      language: "en",
      signers: [
        {
          name: "Alice Andersen",
          email: "alice@example.com",
          role: "Employee",
          signOrder: 0,
          enableInsecureSigning: true,
          insecureSigningMethods: ["text", "draw"],
        },
        { name: "Bob Berg", email: "bob@example.com", role: "Manager", signOrder: 1, enableInsecureSigning: true, insecureSigningMethods: ["text"] },
      ],
      documents: [
        { title: "Contract", name: "contract.pdf", roles: ["Employee", "Manager"] },
        { title: "Appendix", name: "appendix.pdf", signable: false },
      ],
      ccRecipients: [{ name: "HR", email: "hr@example.com" }],
      ...overrides,
    },
  };
}
