export { isBlockedAddress, allowedNetworks } from "./blocked-address";
export { isBlockedPort, portOf } from "./blocked-port";
export { createGuardedLookup, BlockedAddressError } from "./guarded-lookup";
export { checkEndpoint } from "./check-endpoint";
export type { EndpointPolicy, EndpointCheck } from "./check-endpoint";
