export { createCustomer, createApiClient, createUser } from "./create-customer";
export type { CustomerCredentials, NewCustomer } from "./create-customer";
export { authenticateClient, resolveApiKeyClient } from "./authenticate-client";
export type { AuthenticatedClient } from "./authenticate-client";
