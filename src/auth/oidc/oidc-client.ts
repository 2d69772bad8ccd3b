/**
 * The relying-party side of the OpenID Connect authorization-code flow with PKCE (RFC 7636), state and
 * nonce: the authorization URL, the code exchange, ID-token verification (jose, against the provider's
 * published keys) and the user-info claims. Everything a provider returns is checked here before any
 * account is looked at; tokens never leave this module, and are never logged.
 */
import { type JWTPayload, jwtVerify } from 'jose';
import type { OidcProviderConfig } from '../single-sign-on-config';
import { AppError, unauthorized } from '../../lib/errors';
import { type Claims, claimValue, emailLocalPart, type ExternalIdentity, isVerifiedFlag } from '../external-identity';
import { groupsFromClaim } from '../group-mapping';
import { remoteKeySet, verificationFailure } from '../token-verification';
import { type ProviderMetadata, unreachable } from './discovery';
import { codeChallenge } from './pkce';

/** Signature algorithms accepted for ID tokens: asymmetric only, so a leaked client secret cannot mint them. */
const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Clock difference tolerated between Longbox and the provider. */
const CLOCK_TOLERANCE_SECONDS = 60;
const FETCH_TIMEOUT_MS = 10_000;

export interface SignInRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

export async function authorizationUrl(
  metadata: ProviderMetadata,
  provider: OidcProviderConfig,
  request: SignInRequest,
): Promise<string> {
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('scope', provider.scopes.join(' '));
  url.searchParams.set('state', request.state);
  url.searchParams.set('nonce', request.nonce);
  url.searchParams.set('code_challenge', await codeChallenge(request.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** Exchanges the code, verifies the ID token and reads the user-info claims: who signed in. */
export async function identityFromCode(
  metadata: ProviderMetadata,
  provider: OidcProviderConfig,
  request: Omit<SignInRequest, 'state'> & { code: string },
  keySetCooldownSeconds: number,
): Promise<ExternalIdentity> {
  const tokens = await exchangeCode(metadata, provider, request);
  const idClaims = await verifyIdToken(tokens.idToken, metadata, provider, request.nonce, keySetCooldownSeconds);
  const subject = idClaims.sub as string;
  const userInfo = tokens.accessToken ? await fetchUserInfo(metadata, tokens.accessToken, subject) : {};
  return identityFromClaims(provider, idClaims, userInfo);
}

async function exchangeCode(
  metadata: ProviderMetadata,
  provider: OidcProviderConfig,
  request: { code: string; codeVerifier: string; redirectUri: string },
): Promise<{ idToken: string; accessToken: string | undefined }> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    code_verifier: request.codeVerifier,
  });
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  if (provider.clientSecret === undefined) {
    body.set('client_id', provider.clientId);
  } else if (prefersSecretInBody(metadata)) {
    body.set('client_id', provider.clientId);
    body.set('client_secret', provider.clientSecret);
  } else {
    // RFC 6749 §2.3.1: both parts form-encoded before base64.
    headers.Authorization = `Basic ${btoa(`${formEncode(provider.clientId)}:${formEncode(provider.clientSecret)}`)}`;
  }
  let response: Response;
  try {
    response = await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch {
    throw unreachable('token endpoint');
  }
  const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    const error = typeof json?.error === 'string' ? json.error : `HTTP ${response.status}`;
    if (error === 'invalid_client') {
      throw new AppError(
        'ServiceUnavailable',
        'The identity provider refused Longbox’s client credentials (invalid_client): check CLIENT_ID and CLIENT_SECRET',
      );
    }
    if (response.status >= 500 || !json) throw unreachable('token endpoint');
    throw unauthorized(
      `The identity provider refused the authorization code (${error}): it was already used, has expired or belongs to another sign-in`,
    );
  }
  if (typeof json?.id_token !== 'string') {
    throw unauthorized('The identity provider returned no ID token: is the openid scope allowed for this client?');
  }
  return {
    idToken: json.id_token,
    accessToken: typeof json.access_token === 'string' ? json.access_token : undefined,
  };
}

/** client_secret_basic unless the provider says it only takes client_secret_post. */
function prefersSecretInBody(metadata: ProviderMetadata): boolean {
  const methods = metadata.token_endpoint_auth_methods_supported;
  return !!methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
}

const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/** OpenID Connect Core §3.1.3.7: signature, issuer, audience (and azp), expiry, then the nonce we sent. */
async function verifyIdToken(
  idToken: string,
  metadata: ProviderMetadata,
  provider: OidcProviderConfig,
  nonce: string,
  keySetCooldownSeconds: number,
): Promise<JWTPayload> {
  const offered = metadata.id_token_signing_alg_values_supported ?? ['RS256'];
  const algorithms = ACCEPTED_ALGORITHMS.filter((alg) => offered.includes(alg));
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, remoteKeySet(metadata.jwks_uri, keySetCooldownSeconds), {
      issuer: metadata.issuer,
      audience: provider.clientId,
      algorithms: algorithms.length > 0 ? algorithms : ['RS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    throw verificationFailure(error, 'ID token');
  }
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== provider.clientId) {
    throw unauthorized('The ID token was issued for another application (authorized party)');
  }
  if (payload.nonce !== nonce) throw unauthorized('The ID token does not belong to this sign-in (nonce mismatch)');
  return payload;
}

/**
 * The user-info claims: many providers (oidc-provider, Authelia) put e-mail and groups only there. A
 * provider without the endpoint, or refusing it, leaves the ID token's claims alone.
 */
async function fetchUserInfo(metadata: ProviderMetadata, accessToken: string, subject: string): Promise<Claims> {
  if (!metadata.userinfo_endpoint) return {};
  let response: Response;
  try {
    response = await fetch(metadata.userinfo_endpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch {
    throw unreachable('user info endpoint');
  }
  if (!response.ok || !response.headers.get('Content-Type')?.includes('json')) return {};
  const claims = (await response.json().catch(() => ({}))) as Claims;
  // Core §5.3.2: user info about another subject than the ID token's must not be used.
  if (claims.sub !== subject) throw unauthorized('The identity provider described another user than the one signed in');
  return claims;
}

function identityFromClaims(provider: OidcProviderConfig, idClaims: JWTPayload, userInfo: Claims): ExternalIdentity {
  const claim = (name: string) => claimValue(idClaims, name) ?? claimValue(userInfo, name);
  // The address and its verified flag come from the same document, never one from each.
  const emailSource =
    typeof idClaims.email === 'string' ? idClaims : typeof userInfo.email === 'string' ? userInfo : null;
  const email = emailSource ? (emailSource.email as string).trim().toLowerCase() : null;
  const hints = [claim(provider.usernameClaim), claim('preferred_username'), claim('name'), emailLocalPart(email)];
  return {
    provider: provider.name,
    providerName: provider.displayName,
    subject: idClaims.sub as string,
    email,
    emailVerified: emailSource ? isVerifiedFlag(emailSource.email_verified) : false,
    groups: groupsFromClaim(claim(provider.groups.claim)),
    usernameHints: hints.filter((hint): hint is string => typeof hint === 'string' && hint.trim() !== ''),
  };
}
