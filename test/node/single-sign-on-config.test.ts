/**
 * Single-sign-on configuration as an operator writes it (README "Single sign-on"): providers named by
 * their variables, defaults, and a wrong variable failing loudly with its name rather than a provider
 * silently missing from the login screen. Also what a groups claim maps to (docs/DECISIONS.md §Single sign-on: groups).
 */
import { describe, expect, it } from 'vitest';
import { groupsFromClaim, parseGroupMapping, resolveGroupGrants } from '../../src/auth/group-mapping';
import { readSingleSignOnConfig } from '../../src/auth/single-sign-on-config';

describe('single-sign-on variables', () => {
  it('configure nothing by default: passwords for everyone, no providers, no Access', () => {
    expect(readSingleSignOnConfig({ LONGBOX_AUTH__SECRET: 'x'.repeat(40) })).toEqual({
      passwordLogin: true,
      redirectUriBase: undefined,
      providers: [],
      cloudflareAccess: null,
      keySetCooldownSeconds: 30,
    });
  });

  it('name each provider by its variables, with defaults for everything but issuer and client id', () => {
    const config = readSingleSignOnConfig({
      LONGBOX_AUTH__OIDC__POCKET_ID__ISSUER: 'https://id.example.com',
      LONGBOX_AUTH__OIDC__POCKET_ID__CLIENT_ID: 'longbox',
      LONGBOX_AUTH__OIDC__KEYCLOAK__ISSUER: 'https://kc.example.com/realms/home',
      LONGBOX_AUTH__OIDC__KEYCLOAK__CLIENT_ID: 'longbox',
      LONGBOX_AUTH__OIDC__KEYCLOAK__CLIENT_SECRET: 'secret',
      LONGBOX_AUTH__OIDC__KEYCLOAK__DISPLAY_NAME: 'Home Keycloak',
      LONGBOX_AUTH__OIDC__KEYCLOAK__SCOPES: 'email,groups openid',
      LONGBOX_AUTH__OIDC__KEYCLOAK__AUTO_CREATE_USERS: 'true',
      LONGBOX_AUTH__OIDC__KEYCLOAK__DEFAULT_ROLE: 'maintainer',
      LONGBOX_AUTH__OIDC__KEYCLOAK__GROUPS_CLAIM: 'realm_access.roles',
      LONGBOX_AUTH__OIDC__KEYCLOAK__GROUP_MAPPING: 'librarians=role:admin',
      LONGBOX_AUTH__OIDC__REDIRECT_URI_BASE: 'https://longbox.example/ignored/path',
      LONGBOX_AUTH__PASSWORD_LOGIN: 'false',
    });
    expect(config.passwordLogin).toBe(false);
    expect(config.redirectUriBase).toBe('https://longbox.example');
    expect(config.providers.map((p) => p.name)).toEqual(['keycloak', 'pocket_id']);
    expect(config.providers[0]).toEqual({
      name: 'keycloak',
      displayName: 'Home Keycloak',
      issuer: 'https://kc.example.com/realms/home',
      clientId: 'longbox',
      clientSecret: 'secret',
      scopes: ['openid', 'email', 'groups'],
      autoCreateUsers: true,
      defaultRole: 'maintainer',
      usernameClaim: 'preferred_username',
      groups: {
        claim: 'realm_access.roles',
        rules: [{ group: 'librarians', target: { kind: 'role', role: 'admin' } }],
      },
    });
    expect(config.providers[1]).toMatchObject({
      displayName: 'Pocket id',
      clientSecret: undefined,
      scopes: ['openid', 'email', 'profile'],
      autoCreateUsers: false,
      defaultRole: 'reader',
      groups: { claim: 'groups', rules: [] },
    });
  });

  it('configure Cloudflare Access from its team domain and AUD tag', () => {
    const config = readSingleSignOnConfig({
      LONGBOX_AUTH__CF_ACCESS__TEAM_DOMAIN: 'https://myteam.cloudflareaccess.com/',
      LONGBOX_AUTH__CF_ACCESS__AUD: 'abc123',
    });
    expect(config.cloudflareAccess).toEqual({
      teamDomain: 'myteam.cloudflareaccess.com',
      issuer: 'https://myteam.cloudflareaccess.com',
      audience: 'abc123',
      certsUrl: 'https://myteam.cloudflareaccess.com/cdn-cgi/access/certs',
      autoCreateUsers: false,
      defaultRole: 'reader',
    });
  });

  for (const [label, env, problem] of [
    [
      'a provider without its client id',
      { LONGBOX_AUTH__OIDC__AUTHENTIK__ISSUER: 'https://a.example/application/o/longbox/' },
      'LONGBOX_AUTH__OIDC__AUTHENTIK__CLIENT_ID',
    ],
    [
      'a plain-http issuer on another machine',
      { LONGBOX_AUTH__OIDC__A__ISSUER: 'http://idp.lan', LONGBOX_AUTH__OIDC__A__CLIENT_ID: 'x' },
      'LONGBOX_AUTH__OIDC__A__ISSUER: must be an https URL',
    ],
    [
      'a misspelt field',
      {
        LONGBOX_AUTH__OIDC__A__ISSUER: 'https://a.example',
        LONGBOX_AUTH__OIDC__A__CLIENT_ID: 'x',
        LONGBOX_AUTH__OIDC__A__SCOPE: 'email',
      },
      'LONGBOX_AUTH__OIDC__A__SCOPE: unknown',
    ],
    [
      'one underscore too few between name and field',
      { LONGBOX_AUTH__OIDC__AUTHENTIK_ISSUER: 'https://a.example' },
      'LONGBOX_AUTH__OIDC__AUTHENTIK_ISSUER: expected LONGBOX_AUTH__OIDC__<NAME>__<FIELD>',
    ],
    [
      'a mapping to something that is not a role',
      {
        LONGBOX_AUTH__OIDC__A__ISSUER: 'https://a.example',
        LONGBOX_AUTH__OIDC__A__CLIENT_ID: 'x',
        LONGBOX_AUTH__OIDC__A__GROUP_MAPPING: 'staff=role:owner',
      },
      'LONGBOX_AUTH__OIDC__A__GROUP_MAPPING: "role:owner" is not a mapping target',
    ],
    [
      'Access without its AUD tag',
      { LONGBOX_AUTH__CF_ACCESS__TEAM_DOMAIN: 'team.cloudflareaccess.com' },
      'LONGBOX_AUTH__CF_ACCESS__AUD',
    ],
    [
      'a password switch that is not a boolean',
      { LONGBOX_AUTH__PASSWORD_LOGIN: 'maybe' },
      'LONGBOX_AUTH__PASSWORD_LOGIN',
    ],
  ] as const) {
    it(`fail loudly, naming the variable, for ${label}`, () => {
      expect(() => readSingleSignOnConfig({ ...env })).toThrow(problem);
    });
  }
});

describe('group mapping', () => {
  const mapping = parseGroupMapping(
    'longbox-admins=role:admin, editors=role:maintainer, editors=role:reader',
    'groups',
  );

  it('gives the highest role any group maps to, else the default', () => {
    expect(resolveGroupGrants(['editors', 'book-club'], mapping, 'reader')).toEqual({
      role: 'maintainer',
      matched: ['editors'],
    });
    expect(resolveGroupGrants(['editors', 'longbox-admins'], mapping, 'reader').role).toBe('admin');
    expect(resolveGroupGrants(['Longbox-Admins'], mapping, 'reader')).toEqual({ role: 'reader', matched: [] });
    expect(resolveGroupGrants([], mapping, 'maintainer').role).toBe('maintainer');
  });

  it('grants exactly the libraries the groups map to when the mapping has library rules, every library for library:*', () => {
    const withLibraries = parseGroupMapping(
      'kids=library:Kids Comics, family=library:0b9a6c1e-5f4d-4c1e-9a39-3f1c2b7d8e90, family=library:Kids Comics, staff=library:*, staff=role:maintainer',
      'groups',
    );
    expect(resolveGroupGrants(['kids', 'family'], withLibraries, 'reader')).toEqual({
      role: 'reader',
      matched: ['kids', 'family'],
      libraries: ['Kids Comics', '0b9a6c1e-5f4d-4c1e-9a39-3f1c2b7d8e90'],
    });
    expect(resolveGroupGrants(['staff', 'kids'], withLibraries, 'reader')).toMatchObject({
      role: 'maintainer',
      libraries: null,
    });
    // Matching no library rule shares no library: the provider decides.
    expect(resolveGroupGrants(['strangers'], withLibraries, 'reader').libraries).toEqual([]);
    // Without library rules, library access is left to Longbox.
    expect(resolveGroupGrants(['editors'], mapping, 'reader')).not.toHaveProperty('libraries');
    expect(() => parseGroupMapping('kids=library:', 'groups')).toThrow('is not a mapping target');
  });

  it('reads a groups claim sent as an array or as one string', () => {
    expect(groupsFromClaim(['a', 'b', 3])).toEqual(['a', 'b']);
    expect(groupsFromClaim('a b,c')).toEqual(['a', 'b', 'c']);
    expect(groupsFromClaim(undefined)).toEqual([]);
  });
});
