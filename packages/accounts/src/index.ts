export { createCustomer, createApiClient, createUser, setOperator } from "./create-customer";
export type { CustomerCredentials, NewCustomer } from "./create-customer";
export { authenticateClient, resolveApiKey, resolveApiKeyClient } from "./authenticate-client";
export type { ApiKeyClient, AuthenticatedClient } from "./authenticate-client";
export { issueRefreshToken, redeemRefreshToken } from "./refresh-tokens";
export type { IssuedRefreshToken, RefreshOutcome, RefreshRefusal } from "./refresh-tokens";
export { hashPassword, verifyPassword, verifyDecoy, randomPassword, PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from "./passwords";
export { createAdminUser } from "./admin-user";
export type { NewAdminUser } from "./admin-user";
