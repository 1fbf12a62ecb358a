export { createCustomer, createApiClient, createUser, setOperator } from "./create-customer";
export type { CustomerCredentials, NewCustomer } from "./create-customer";
export { authenticateClient, resolveApiKey, resolveApiKeyClient } from "./authenticate-client";
export type { ApiKeyClient, AuthenticatedClient } from "./authenticate-client";
export { issueRefreshToken, redeemRefreshToken } from "./refresh-tokens";
export type { IssuedRefreshToken, RefreshOutcome, RefreshRefusal } from "./refresh-tokens";
export { credentialStanding, issueCredential, listCredentials, revokeCredential, rotateCredential, touchCredential } from "./credentials";
export type { CredentialRecord, CredentialRefusal, CredentialStanding, IssuedCredential } from "./credentials";
