/**
 * A peer's accounts and credentials, imported (docs/DECISIONS.md §Coming from Komga or Kavita, §Imported
 * credentials): each user with their role, libraries, age and label restrictions and their password hash as the
 * peer stored it (checked at the first sign-in, then replaced); Komga's API keys, kept working on `/komga`.
 *
 * A user whose e-mail address or name a Longbox account already has is not created: with `mergeExisting` the
 * peer's user becomes that account (which keeps its own password, role and access; what the peer user read and
 * listed goes to it), otherwise it is skipped and reported, and so is everything of theirs.
 */
import { isKomgaApiKeyHash } from '../../auth/api-key-format';
import { storedImportedHash } from '../../auth/imported-password';
import { NO_PASSWORD } from '../../auth/password';
import { PERMISSIONS } from '../../auth/permissions';
import { badRequest } from '../../lib/errors';
import { newId, nowIso } from '../../lib/ids';
import type { ApiKeysRepository } from '../../repositories/api-keys.repository';
import type { ImportsRepository } from '../../repositories/imports.repository';
import type { LibrariesRepository } from '../../repositories/libraries.repository';
import type { SharingLabelsRepository } from '../../repositories/sharing-labels.repository';
import type { AccessChange } from '../../repositories/user-access.repository';
import type { UsersRepository } from '../../repositories/users.repository';
import type { Viewer } from '../../repositories/visibility';
import type { ImportApiKeysBody, ImportOutcome, ImportUser, ImportUsersBody } from '../../schemas/import.schema';
import type { Statement } from '../../repositories/catalog-writer.repository';
import { assertDistinct, created, instant, merged, skipped, unchanged, runBatch } from './outcomes';

export interface PeerUsersDeps {
  imports: ImportsRepository;
  users: UsersRepository;
  apiKeys: ApiKeysRepository;
  labels: SharingLabelsRepository;
  libraries: LibrariesRepository;
}

const GONE = 'imported by an earlier run and deleted in Longbox since: not brought back';

export class PeerUsersService {
  constructor(private readonly deps: PeerUsersDeps) {}

  /**
   * One batch of users: created, merged, found from an earlier run, or skipped with the reason. What decides it
   * is read in one wave, beside the credential check (the route is `checked-writes`); the writes wait for the
   * check (`checked`) and are one batch.
   */
  async importUsers(viewer: Viewer, body: ImportUsersBody, checked: () => Promise<void>): Promise<ImportOutcome[]> {
    const { imports, users, labels, libraries } = this.deps;
    assertDistinct('users', body.users);
    const [knownLibraries, origins, accounts, knownLabels] = await Promise.all([
      libraries.visibleIds(viewer, [...new Set(body.users.flatMap((u) => u.libraryIds))]),
      imports.userOrigins(
        body.source,
        body.users.map((u) => u.foreignId),
      ),
      imports.accountsNamed(
        body.users.map((u) => u.email),
        body.users.map((u) => u.username),
      ),
      labels.idsNamed(body.users.flatMap((u) => [...u.labelsAllow, ...u.labelsExclude])),
    ]);
    assertLibrariesExist(body.users, knownLibraries);
    const now = nowIso();
    const results: ImportOutcome[] = [];
    const toCreate: Array<{ user: ImportUser; id: string; passwordHash: string }> = [];
    const merges: Array<{ foreignId: string; longboxId: string }> = [];
    const taken = new Set<string>();
    for (const user of body.users) {
      const known = origins.get(user.foreignId);
      if (known) {
        results.push(known.living ? unchanged(user.foreignId, known.longboxId) : skipped(user.foreignId, GONE));
        continue;
      }
      const email = user.email.toLowerCase();
      const name = user.username.toLowerCase();
      const account =
        accounts.find((a) => a.email === email) ?? accounts.find((a) => a.username.toLowerCase() === name);
      if (account) {
        const why = account.email === email ? `the e-mail address ${email}` : `the name ${account.username}`;
        if (body.mergeExisting) {
          merges.push({ foreignId: user.foreignId, longboxId: account.id });
          results.push(merged(user.foreignId, account.id, `a Longbox account has ${why}: imported into it`));
        } else {
          results.push(
            skipped(user.foreignId, `a Longbox account has ${why}: skipped (run with --merge-users to import into it)`),
          );
        }
        continue;
      }
      if (taken.has(email) || taken.has(`name:${name}`)) {
        results.push(skipped(user.foreignId, `another user of this batch has the same e-mail address or name`));
        continue;
      }
      const passwordHash = user.password ? storedImportedHash(user.password.format, user.password.hash) : NO_PASSWORD;
      if (passwordHash === null) {
        results.push(skipped(user.foreignId, `the password hash is not a ${user.password?.format} hash`));
        continue;
      }
      taken.add(email).add(`name:${name}`);
      const id = newId();
      toCreate.push({ user, id, passwordHash });
      results.push(created(user.foreignId, id));
    }
    const { ids: labelIds, statements: labelStatements } = labels.creation(
      toCreate.flatMap(({ user }) => [...user.labelsAllow, ...user.labelsExclude]),
      knownLabels,
      now,
    );
    const statements: Statement[] = toCreate.flatMap(({ user, id, passwordHash }) =>
      users.creation(
        {
          id,
          username: user.username,
          email: user.email,
          passwordHash,
          role: user.role,
          customPermissions: [],
          isActive: user.active,
          // The peer's admin vouched for the account; Longbox's verification is for self-registration.
          emailVerified: true,
          createdAt: now,
          updatedAt: now,
        },
        { change: accessOf(user, labelIds) },
      ),
    );
    await checked();
    await runBatch(imports, [
      ...labelStatements,
      ...statements,
      ...imports.remember(
        body.source,
        'user',
        [...toCreate.map((c) => ({ foreignId: c.user.foreignId, longboxId: c.id })), ...merges],
        now,
      ),
    ]);
    return results;
  }

  /**
   * Komga's API keys (only their SHA-512 is known), each kept for its owner with every permission the owner
   * holds, as in Komga; it can be revoked like any key. A hash some other key already has collides: skipped.
   */
  async importApiKeys(body: ImportApiKeysBody, checked: () => Promise<void>): Promise<ImportOutcome[]> {
    const { imports, apiKeys } = this.deps;
    assertDistinct('keys', body.keys);
    const [origins, owners, holders] = await Promise.all([
      imports.origins(
        body.source,
        'api_key',
        body.keys.map((k) => k.foreignId),
      ),
      imports.existingUsers(body.keys.map((k) => k.userId)),
      apiKeys.prefixesTaken(body.keys.map((k) => k.sha512)),
    ]);
    const now = nowIso();
    const results: ImportOutcome[] = [];
    const fresh: Array<{ foreignId: string; longboxId: string }> = [];
    const statements: Statement[] = [];
    const hashes = new Set<string>();
    for (const key of body.keys) {
      const known = origins.get(key.foreignId);
      if (known) {
        results.push(unchanged(key.foreignId, known));
        continue;
      }
      if (!owners.has(key.userId)) {
        results.push(skipped(key.foreignId, `no user ${key.userId} in Longbox`));
        continue;
      }
      if (!isKomgaApiKeyHash(key.sha512) || holders.has(key.sha512) || hashes.has(key.sha512)) {
        results.push(skipped(key.foreignId, `collides with an API key already in Longbox: not imported`));
        continue;
      }
      hashes.add(key.sha512);
      const id = newId();
      statements.push(
        apiKeys.importedKomgaKey({
          id,
          userId: key.userId,
          name: key.name,
          format: 'komga',
          prefix: key.sha512,
          secretHash: key.sha512,
          permissions: [...PERMISSIONS],
          allLibraries: true,
          expiresAt: null,
          lastUsedAt: null,
          createdAt: instant(key.createdAt),
        }),
      );
      fresh.push({ foreignId: key.foreignId, longboxId: id });
      results.push(created(key.foreignId, id));
    }
    await checked();
    await runBatch(imports, [...statements, ...imports.remember(body.source, 'api_key', fresh, now)]);
    return results;
  }
}

/** A library id no library has would fail the whole batch on its grant row: a 400 naming it instead. */
function assertLibrariesExist(users: readonly ImportUser[], known: ReadonlySet<string>): void {
  const problems = users.flatMap((user, i) =>
    user.libraryIds.flatMap((id, j) =>
      known.has(id) ? [] : [{ path: `users.${i}.libraryIds.${j}`, message: `no library ${id}` }],
    ),
  );
  if (problems.length > 0) throw badRequest('Unknown library ids', problems);
}

/** The peer's access as Longbox's: a label both allowed and excluded counts as excluded (Komga's rule). */
function accessOf(user: ImportUser, labelIds: Map<string, string>): AccessChange {
  const denied = new Set(user.labelsExclude.map((name) => name.toLowerCase()));
  const grants = [
    ...[...denied].map((name) => ({ name, mode: 'deny' as const })),
    ...[...new Set(user.labelsAllow.map((name) => name.toLowerCase()))]
      .filter((name) => !denied.has(name))
      .map((name) => ({ name, mode: 'allow' as const })),
  ];
  return {
    libraries: { all: user.sharedAllLibraries, ids: user.libraryIds },
    ageRestriction: user.ageRestriction && { age: user.ageRestriction.age, mode: user.ageRestriction.restriction },
    labels: grants.flatMap(({ name, mode }) => {
      const labelId = labelIds.get(name);
      return labelId ? [{ labelId, mode }] : [];
    }),
  };
}
