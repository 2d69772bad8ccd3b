/**
 * OpenID Provider metadata from `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0),
 * kept per isolate for an hour: a sign-in costs no extra round trip, and a provider that moves an endpoint
 * is followed within the hour.
 */
import { z } from 'zod';
import { AppError } from '../../lib/errors';

const MetadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
});

export type ProviderMetadata = z.infer<typeof MetadataSchema>;

const TTL_MS = 60 * 60_000;
const cache = new Map<string, { metadata: ProviderMetadata; expiresAt: number }>();

export function unreachable(what: string): AppError {
  return new AppError('ServiceUnavailable', `The identity provider could not be reached (${what}); try again later`);
}

export async function discover(issuer: string): Promise<ProviderMetadata> {
  const cached = cache.get(issuer);
  if (cached && cached.expiresAt > Date.now()) return cached.metadata;
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const response = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch {
    throw unreachable('discovery document');
  }
  const parsed = MetadataSchema.safeParse(body);
  if (!parsed.success) {
    throw new AppError('ServiceUnavailable', "The identity provider's discovery document lacks required endpoints");
  }
  // Discovery §4.3: the document must name the issuer it was fetched for, or tokens could be mixed up
  // between providers. Only a trailing slash may differ, since operators copy issuers both ways.
  if (parsed.data.issuer.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) {
    throw new AppError(
      'ServiceUnavailable',
      `The identity provider's discovery document names the issuer ${parsed.data.issuer}, not the configured ${issuer}`,
    );
  }
  cache.set(issuer, { metadata: parsed.data, expiresAt: Date.now() + TTL_MS });
  return parsed.data;
}
