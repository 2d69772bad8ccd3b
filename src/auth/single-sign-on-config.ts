/**
 * Single-sign-on configuration from `[vars]` and secrets (README "Single sign-on", docs/DECISIONS.md §Single sign-on).
 * OIDC providers are named by the variables themselves, `LONGBOX_AUTH__OIDC__<NAME>__<FIELD>` (config key
 * `auth.oidc.<name>.<field>`), so any number can be added without a list to keep in step; Cloudflare Access
 * is `LONGBOX_AUTH__CF_ACCESS__*`. A wrong value fails loudly at the first request, as readConfig does.
 */
import { z } from 'zod';
import { booleanString } from '../config/config';
import { type GroupMapping, parseGroupMapping } from './group-mapping';
import type { Role } from './permissions';

export interface OidcProviderConfig {
  /** The provider's name in URLs (`/auth/oidc/<name>/login`): the `<NAME>` of its variables, lowercased. */
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  /** Absent for a public client (PKCE alone authenticates the code exchange). */
  clientSecret: string | undefined;
  scopes: string[];
  autoCreateUsers: boolean;
  defaultRole: Role;
  usernameClaim: string;
  groups: GroupMapping;
}

export interface CloudflareAccessConfig {
  teamDomain: string;
  /** `https://<team domain>`: the `iss` of every Access token. */
  issuer: string;
  /** The application's AUD tag. */
  audience: string;
  /** Where the team's signing keys are published; a plain value so a test can serve its own. */
  certsUrl: string;
  autoCreateUsers: boolean;
  defaultRole: Role;
}

export interface SingleSignOnConfig {
  /** False: passwords sign in admins only (docs/DECISIONS.md §Password login). */
  passwordLogin: boolean;
  /** The public origin callbacks are registered under; default: the origin the request came to. */
  redirectUriBase: string | undefined;
  providers: OidcProviderConfig[];
  cloudflareAccess: CloudflareAccessConfig | null;
  /** Least time between two fetches of a key set caused by an unknown `kid` (a token cannot force a refetch storm). */
  keySetCooldownSeconds: number;
}

const PREFIX = 'LONGBOX_AUTH__';
const OIDC_PREFIX = `${PREFIX}OIDC__`;
const ACCESS_PREFIX = `${PREFIX}CF_ACCESS__`;

const DefaultRoleSchema = z.enum(['reader', 'maintainer']);
const ClaimNameSchema = z.string().regex(/^[A-Za-z0-9_:./-]{1,100}$/, 'must be a claim name');

const ProviderFieldsSchema = z.strictObject({
  ISSUER: z.string().refine(isIssuerUrl, 'must be an https URL (http only for localhost)'),
  CLIENT_ID: z.string().min(1),
  CLIENT_SECRET: z.string().min(1).optional(),
  DISPLAY_NAME: z.string().trim().min(1).max(100).optional(),
  SCOPES: z.string().optional(),
  AUTO_CREATE_USERS: booleanString.default(false),
  DEFAULT_ROLE: DefaultRoleSchema.default('reader'),
  USERNAME_CLAIM: ClaimNameSchema.default('preferred_username'),
  GROUPS_CLAIM: ClaimNameSchema.default('groups'),
  GROUP_MAPPING: z.string().optional(),
});

const AccessFieldsSchema = z.strictObject({
  TEAM_DOMAIN: z
    .string()
    .transform((value) =>
      value
        .trim()
        .replace(/^https:\/\//, '')
        .replace(/\/+$/, ''),
    )
    .pipe(z.string().regex(/^[A-Za-z0-9.-]+$/, 'must be a host name such as myteam.cloudflareaccess.com')),
  AUD: z.string().trim().min(1),
  AUTO_CREATE_USERS: booleanString.default(false),
  DEFAULT_ROLE: DefaultRoleSchema.default('reader'),
  CERTS_URL: z.url().optional(),
});

const GlobalFieldsSchema = z.object({
  PASSWORD_LOGIN: booleanString.default(true),
  JWKS_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  OIDC_REDIRECT_URI_BASE: z
    .url()
    .transform((value) => new URL(value).origin)
    .optional(),
});

const cache = new WeakMap<object, SingleSignOnConfig>();

export function readSingleSignOnConfig(env: object): SingleSignOnConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const problems: string[] = [];
  const globals: Record<string, string> = {};
  const providerFields = new Map<string, Record<string, string>>();
  const accessFields: Record<string, string> = {};

  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith(PREFIX) || typeof value !== 'string' || value === '') continue;
    if (key.startsWith(ACCESS_PREFIX)) {
      accessFields[key.slice(ACCESS_PREFIX.length)] = value;
    } else if (key.startsWith(OIDC_PREFIX)) {
      const parts = key.slice(OIDC_PREFIX.length).split('__');
      if (parts.length === 1 && parts[0] === 'REDIRECT_URI_BASE') globals.OIDC_REDIRECT_URI_BASE = value;
      else if (parts.length === 2 && /^[A-Z0-9]+(_[A-Z0-9]+)*$/.test(parts[0] as string)) {
        const name = (parts[0] as string).toLowerCase();
        providerFields.set(name, { ...providerFields.get(name), [parts[1] as string]: value });
      } else problems.push(`${key}: expected LONGBOX_AUTH__OIDC__<NAME>__<FIELD>`);
    } else {
      globals[key.slice(PREFIX.length)] = value;
    }
  }

  const global = GlobalFieldsSchema.safeParse(globals);
  if (!global.success) problems.push(...describe(global.error, PREFIX));

  const providers: OidcProviderConfig[] = [];
  for (const [name, fields] of providerFields) {
    const variable = `${OIDC_PREFIX}${name.toUpperCase()}__`;
    const parsed = ProviderFieldsSchema.safeParse(fields);
    if (!parsed.success) {
      problems.push(...describe(parsed.error, variable));
      continue;
    }
    const p = parsed.data;
    try {
      providers.push({
        name,
        displayName: p.DISPLAY_NAME ?? defaultDisplayName(name),
        issuer: p.ISSUER,
        clientId: p.CLIENT_ID,
        clientSecret: p.CLIENT_SECRET,
        scopes: withOpenId(p.SCOPES),
        autoCreateUsers: p.AUTO_CREATE_USERS,
        defaultRole: p.DEFAULT_ROLE,
        usernameClaim: p.USERNAME_CLAIM,
        groups: parseGroupMapping(p.GROUP_MAPPING, p.GROUPS_CLAIM),
      });
    } catch (error) {
      problems.push(`${variable}GROUP_MAPPING: ${(error as Error).message}`);
    }
  }

  let cloudflareAccess: CloudflareAccessConfig | null = null;
  if (Object.keys(accessFields).length > 0) {
    const parsed = AccessFieldsSchema.safeParse(accessFields);
    if (parsed.success) {
      const a = parsed.data;
      cloudflareAccess = {
        teamDomain: a.TEAM_DOMAIN,
        issuer: `https://${a.TEAM_DOMAIN}`,
        audience: a.AUD,
        certsUrl: a.CERTS_URL ?? `https://${a.TEAM_DOMAIN}/cdn-cgi/access/certs`,
        autoCreateUsers: a.AUTO_CREATE_USERS,
        defaultRole: a.DEFAULT_ROLE,
      };
    } else problems.push(...describe(parsed.error, ACCESS_PREFIX));
  }

  if (problems.length > 0 || !global.success) {
    throw new Error(`Invalid Longbox configuration: ${problems.join('; ')}`);
  }
  const config: SingleSignOnConfig = {
    passwordLogin: global.data.PASSWORD_LOGIN,
    redirectUriBase: global.data.OIDC_REDIRECT_URI_BASE,
    providers: providers.sort((a, b) => a.name.localeCompare(b.name)),
    cloudflareAccess,
    keySetCooldownSeconds: global.data.JWKS_COOLDOWN_SECONDS,
  };
  cache.set(env, config);
  return config;
}

/** `pocket_id` → `Pocket id`: a readable button until DISPLAY_NAME says better. */
function defaultDisplayName(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `openid` first, then the configured scopes (space- or comma-separated); default `openid email profile`. */
function withOpenId(scopes: string | undefined): string[] {
  const listed = (scopes ?? 'email profile').split(/[\s,]+/).filter(Boolean);
  return ['openid', ...new Set(listed.filter((scope) => scope !== 'openid'))];
}

/** OIDC requires https issuers; plain http is accepted for a provider on this machine (tests, local IdPs). */
function isIssuerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.search || url.hash) return false;
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

function describe(error: z.ZodError, variablePrefix: string): string[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `${issue.keys.map((k) => variablePrefix + k).join(', ')}: unknown`;
    const field = issue.path.join('.');
    const variable = field.startsWith('OIDC_') ? `${OIDC_PREFIX}${field.slice(5)}` : variablePrefix + field;
    return `${variable}: ${issue.message}`;
  });
}
