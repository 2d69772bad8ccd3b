/**
 * A person as a single-sign-on provider vouches for them, reduced to what Longbox's account rules use
 * (docs/DECISIONS.md §Single sign-on: accounts): who they are there (`subject`), the e-mail address and whether the
 * provider verified it, the groups they are in, and hints for a new account's username.
 */
export interface ExternalIdentity {
  /** The provider's name in Longbox (`authentik`, `cloudflare-access`). */
  provider: string;
  /** Its display name, for messages. */
  providerName: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  groups: string[];
  /** Candidates for a new account's username, best first (preferred_username, name, e-mail local part). */
  usernameHints: string[];
}

export type Claims = Record<string, unknown>;

/**
 * A claim by name: literal first (`https://example.com/groups`, as Auth0 namespaces them), then as a dotted
 * path into nested objects (`realm_access.roles`, Keycloak's realm roles).
 */
export function claimValue(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

/** `email_verified` is a boolean by the spec; some providers (Cognito) send the string "true". */
export function isVerifiedFlag(value: unknown): boolean {
  return value === true || value === 'true';
}

/** `jane.doe@example.com` → `jane.doe`. */
export function emailLocalPart(email: string | null): string | undefined {
  return email?.split('@')[0] || undefined;
}
