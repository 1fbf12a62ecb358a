/**
 * Where every identity login returns (one address for every signing link: OpenID providers register
 * exact redirect URIs). The signing routes serve it; the simulator checks redirects against it.
 */
export const SECURE_CALLBACK_PATH = "/sign/secure/callback";
