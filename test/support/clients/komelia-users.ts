/**
 * Komelia's user administration and the content restrictions it edits — issue 17's "`/komga` user
 * administration, which Komelia's admin screens call" and "the Komga `UserDto` fields as Komelia reads them".
 *
 * - Snd-R/komga-client 0.10.2 `user/HttpUserClient.kt`, `user/KomgaUser.kt` (UserDto as parsed, the update
 *   request with PatchValue fields), `user/KomgaAuthenticationActivity.kt`, `referential/HttpReferentialClient.kt`
 *   (`getSharingLabels`, `getAgeRatings`), `common/PatchValue.kt` (`patch(original, new)`: unchanged → key left
 *   out, new null → `null`).
 * - Snd-R/Komelia `komelia-ui/src/commonMain/kotlin/snd/komelia/ui/`: `settings/users/UsersViewModel.kt`,
 *   `dialogs/user/{UserAddDialogViewModel,UserEditDialogViewModel,PasswordChangeDialogViewModel,UserEditDialog}.kt`,
 *   `ViewModelFactory.kt` (the edit dialog's library list is the one loaded at login), `dialogs/series/edit/
 *   SeriesEditMetadataState.kt` (sharingLabels/ageRating edits), `series/SeriesFilterState.kt` and
 *   `home/edit/FilterEditViewModel.kt` (referential calls).
 * - gotson/komga `komga/src/main/kotlin/org/gotson/komga/`: `interfaces/api/rest/UserController.kt`,
 *   `rest/dto/{UserDto,UserUpdateDto,UserCreationDto,AuthenticationActivityDto}.kt`,
 *   `interfaces/api/rest/ReferentialV1Controller.kt` (`getSharingLabels`, `getAgeRatings`),
 *   `domain/model/{UserRoles,ContentRestrictions,KomgaUser}.kt` (`isContentAllowed`),
 *   `domain/service/KomgaUserLifecycle.kt` (`updateUser`: sessions expire when access changes),
 *   `infrastructure/metadata/comicrack/dto/AgeRating.kt` (ComicInfo AgeRating → age).
 * Commits: UPSTREAM in ./client-http.ts.
 */
import { z } from 'zod';
import { instant, int, KomeliaUser } from '../komga-client-dtos';
import { type ClientStep, ktorQuery, ref } from './client-http';

const REST = 'komga/src/main/kotlin/org/gotson/komga/interfaces/api/rest';
const UI = 'komelia-ui/src/commonMain/kotlin/snd/komelia/ui';
const KC = 'src/commonMain/kotlin/snd/komga/client';

/** Komga `UserRoles` (domain/model/UserRoles.kt); `UserDto.roles` also always contains "USER". */
export const KOMGA_ROLES = ['ADMIN', 'FILE_DOWNLOAD', 'PAGE_STREAMING', 'KOBO_SYNC', 'KOREADER_SYNC'] as const;

/**
 * `UserDto` as komga-client decodes it (`KomgaUser`): every key required — **including `ageRestriction`, which
 * must be present as `null` when there is none** (a nullable property without a default is required by kotlinx
 * with `explicitNulls` on, komga-client's setting). Komga ≥ 1.24.4 leaves the key out instead
 * (gotson/komga e3a8cc6b, `@JsonInclude(NON_NULL)` on UserDto); that response would not decode in komga-client
 * 0.10.2, so a server that wants Komelia's admin screens and login to work sends `"ageRestriction": null`.
 * `restriction` is ALLOW_ONLY or EXCLUDE only (komga-client `AllowExclude`; "NONE" would not decode).
 */
export const KomeliaUserDto = KomeliaUser;

/** What Komga fills in (UserDto.kt `toDto`): labels lower-cased, allow minus exclude, `sharedLibrariesIds` empty when all. */
export const KOMGA_USER_DTO_RULES = ref('komga', `${REST}/dto/UserDto.kt`, 'toDto');

/** Komga `AgeRestrictionUpdateDto`: `age` `@PositiveOrZero`; NONE (or `ageRestriction: null`) removes it. */
export const KomgaAgeRestrictionUpdateDto = z.object({
  age: int.min(0),
  restriction: z.enum(['ALLOW_ONLY', 'EXCLUDE', 'NONE']),
});

/** Komga `SharedLibrariesUpdateDto`: `libraryIds` ignored when `all`; unknown ids are silently dropped by Komga. */
export const KomgaSharedLibrariesUpdateDto = z.object({ all: z.boolean(), libraryIds: z.array(z.string()) });

/**
 * Komga `UserUpdateDto`, `PATCH /api/v2/users/{id}` (ADMIN, and not oneself: 403 for one's own id) → 204;
 * 404 unknown user. Every key optional (absent = unchanged); `ageRestriction: null` removes it, `labelsAllow`/
 * `labelsExclude: null` empties them; `roles` replaces the roles, **unknown names ignored** (Komelia sends "USER",
 * which is not a role). Changing roles, restrictions or libraries expires the user's sessions and sends the SSE
 * event SessionExpired `{userId}` to that user.
 */
export const KomgaUserUpdateDto = z.object({
  ageRestriction: KomgaAgeRestrictionUpdateDto.nullable().optional(),
  labelsAllow: z.array(z.string()).nullable().optional(),
  labelsExclude: z.array(z.string()).nullable().optional(),
  roles: z.array(z.string()).optional(),
  sharedLibraries: KomgaSharedLibrariesUpdateDto.optional(),
});

/**
 * Komga `UserCreationDto`, `POST /api/v2/users` (ADMIN) → **201** UserDto; 400 "A user with this email already
 * exists"; `email` must match `.+@.+\..+`, `password` not blank. Without `sharedLibraries` the user sees every
 * library; without restrictions none apply. Komelia sends only email, password and roles.
 */
export const KomgaUserCreationDto = z.object({
  email: z.string().regex(/.+@.+\..+/),
  password: z.string().trim().min(1),
  roles: z.array(z.string()).default([]),
  ageRestriction: KomgaAgeRestrictionUpdateDto.nullable().optional(),
  labelsAllow: z.array(z.string()).nullable().optional(),
  labelsExclude: z.array(z.string()).nullable().optional(),
  sharedLibraries: KomgaSharedLibrariesUpdateDto.nullable().optional(),
});

/**
 * komga-client `KomgaAuthenticationActivity` for `GET /api/v2/users/{id}/authentication-activity/latest`:
 * `success` and `dateTime` required, `source` a **non-null** string (Komga: "Password", "ApiKey",
 * "RememberMe", …), the rest nullable but present.
 */
export const KomeliaAuthenticationActivity = z.object({
  userId: z.string().nullable(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  success: z.boolean(),
  error: z.string().nullable(),
  dateTime: instant,
  source: z.string(),
});

/**
 * `GET /api/v1/sharing-labels` and `GET /api/v1/age-ratings` (Komga ReferentialV1Controller): JSON arrays of
 * strings over the series the caller may see (`library_id` comma list, or `collection_id`, narrows them);
 * sharing labels lower-case; age ratings as decimal strings, with "None" for series without one.
 */
export const KomgaReferentialStrings = z.array(z.string());

// ---- Komelia's requests ---------------------------------------------------------------------------------------

export interface KomeliaUserEdit {
  administrator: boolean;
  pageStreaming: boolean;
  fileDownload: boolean;
  shareAllLibraries: boolean;
  sharedLibraries: string[];
  ageRestriction: 'NONE' | 'ALLOW_ONLY' | 'EXCLUDE';
  /** The age field, kept when the restriction is NONE (0 by default). */
  age: number;
  labelsAllow: string[];
  labelsExclude: string[];
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/**
 * The PATCH body of Komelia's user dialog (`UserEditDialogViewModel.saveChanges`): each key only when it changed
 * (`patch(original, new)`), `roles` always including "USER" and compared with the user's roles (which Komga
 * reports with "USER", so untouched roles are not sent), `ageRestriction: null` to remove a restriction (never
 * "NONE"), `sharedLibraries` as `{all, libraryIds}` whenever either changed. Labels are free text (chips), not
 * picked from the server's list. The Libraries and Content restriction tabs are hidden for an admin user.
 */
export function komeliaUserUpdateBody(user: z.infer<typeof KomeliaUserDto>, edit: KomeliaUserEdit) {
  const body: Record<string, unknown> = {};
  const age = edit.ageRestriction === 'NONE' ? null : { age: edit.age, restriction: edit.ageRestriction };
  const before = user.ageRestriction;
  if (
    !(age === null
      ? before === null
      : before !== null && before.age === age.age && before.restriction === age.restriction)
  ) {
    body.ageRestriction = age;
  }
  if (!sameSet(user.labelsAllow, edit.labelsAllow)) body.labelsAllow = edit.labelsAllow;
  if (!sameSet(user.labelsExclude, edit.labelsExclude)) body.labelsExclude = edit.labelsExclude;
  const roles = ['USER'];
  if (edit.administrator) roles.push('ADMIN');
  if (edit.fileDownload) roles.push('FILE_DOWNLOAD');
  if (edit.pageStreaming) roles.push('PAGE_STREAMING');
  if (!sameSet(user.roles, roles)) body.roles = roles;
  if (user.sharedAllLibraries !== edit.shareAllLibraries || !sameSet(user.sharedLibrariesIds, edit.sharedLibraries)) {
    body.sharedLibraries = { all: edit.shareAllLibraries, libraryIds: edit.sharedLibraries };
  }
  return body;
}

/** Komelia's "add user" dialog (`UserAddDialogViewModel.addUser`): page streaming and download ticked by default. */
export function komeliaUserCreateBody(
  email: string,
  password: string,
  roles = { admin: false, pageStreaming: true, fileDownload: true },
) {
  const set: string[] = [];
  if (roles.admin) set.push('ADMIN');
  if (roles.pageStreaming) set.push('PAGE_STREAMING');
  if (roles.fileDownload) set.push('FILE_DOWNLOAD');
  return { email, password, roles: set };
}

/** komga-client referential query: `library_id` comma-joined without spaces (here), `collection_id`. */
export const komeliaReferentialPath = (what: 'sharing-labels' | 'age-ratings', libraryIds: string[] = []) =>
  `/api/v1/${what}${libraryIds.length ? `?${ktorQuery([['library_id', libraryIds.join(',')]])}` : ''}`;

export const KOMELIA_USER_ADMIN_STEPS: readonly ClientStep[] = [
  {
    step: 'login',
    client: 'komelia',
    method: 'GET',
    path: '/api/v2/users/me',
    query: 'remember-me=true',
    accepts: [200],
    response: KomeliaUserDto,
    effect:
      'Decides everything else: `roles` containing ADMIN shows the server settings (Users screen); a UserDto that fails to decode is a failed login.',
    source: [ref('komgaClient', `${KC}/user/HttpUserClient.kt`, 'getMe')],
  },
  {
    step: 'libraries',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/libraries',
    accepts: [200],
    effect: "Loaded at login into shared state; the user dialog's Libraries tab lists these (no other library call).",
    source: [ref('komelia', `${UI}/ViewModelFactory.kt`, 'getUserEditDialogViewModel')],
  },
  {
    step: 'users',
    client: 'komelia',
    method: 'GET',
    path: '/api/v2/users',
    accepts: [200],
    response: z.array(KomeliaUserDto),
    effect: 'Settings → Users. Any user failing to decode fails the whole screen.',
    source: [ref('komelia', `${UI}/settings/users/UsersViewModel.kt`, 'loadUserList')],
  },
  {
    step: 'latest-activity',
    client: 'komelia',
    method: 'GET',
    path: '/api/v2/users/{userId}/authentication-activity/latest',
    accepts: [200],
    response: KomeliaAuthenticationActivity,
    effect: 'Once per listed user; **404 → no activity** (caught), any other error fails the Users screen.',
    source: [ref('komelia', `${UI}/settings/users/UsersViewModel.kt`, 'getLatestActivityFor')],
  },
  {
    step: 'user-create',
    client: 'komelia',
    method: 'POST',
    path: '/api/v2/users',
    body: KomgaUserCreationDto,
    accepts: [200, 201],
    response: KomeliaUserDto,
    effect: 'komeliaUserCreateBody(); then the list reloads.',
    source: [ref('komelia', `${UI}/dialogs/user/UserAddDialogViewModel.kt`, 'addUser')],
  },
  {
    step: 'user-update',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v2/users/{userId}',
    body: KomgaUserUpdateDto,
    accepts: [200, 204],
    effect: 'komeliaUserUpdateBody(); Komga answers 204. An error is shown as a notification.',
    source: [
      ref('komelia', `${UI}/dialogs/user/UserEditDialogViewModel.kt`, 'saveChanges'),
      ref('komga', `${REST}/UserController.kt`, 'updateUserById'),
    ],
  },
  {
    step: 'user-password',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v2/users/{userId}/password',
    body: '{"password": "<new>"} (own password: PATCH /api/v2/users/me/password)',
    accepts: [200, 204],
    effect: 'Password dialog.',
    source: [ref('komgaClient', `${KC}/user/HttpUserClient.kt`, 'updatePassword')],
  },
  {
    step: 'user-delete',
    client: 'komelia',
    method: 'DELETE',
    path: '/api/v2/users/{userId}',
    accepts: [200, 204],
    effect: 'Then GET /api/v2/users again. Komga refuses deleting oneself (403).',
    source: [ref('komelia', `${UI}/settings/users/UsersViewModel.kt`, 'onUserDelete')],
  },
  {
    step: 'series-sharing-edit',
    client: 'komelia',
    method: 'PATCH',
    path: '/api/v1/series/{seriesId}/metadata',
    body: '{"sharingLabels": [...], "sharingLabelsLock": true|false, "ageRating": n|null, "ageRatingLock": …} — only changed keys',
    accepts: [200, 204],
    effect:
      'Series edit dialog, Sharing and General tabs (SeriesEditMetadataState.saveMetadataChanges); Komelia never locks by itself.',
    source: [ref('komelia', `${UI}/dialogs/series/edit/SeriesEditMetadataState.kt`)],
  },
  {
    step: 'sharing-labels',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/sharing-labels',
    accepts: [200],
    response: KomgaReferentialStrings,
    effect: 'Suggestions for the home-screen filter editor (FilterEditViewModel), not for the user dialog.',
    source: [
      ref('komelia', `${UI}/home/edit/FilterEditViewModel.kt`),
      ref('komga', `${REST}/ReferentialV1Controller.kt`, 'getSharingLabels'),
    ],
  },
  {
    step: 'age-ratings',
    client: 'komelia',
    method: 'GET',
    path: '/api/v1/age-ratings',
    query: '[library_id={libraryId}]',
    accepts: [200],
    response: KomgaReferentialStrings,
    effect: 'Age-rating options of the series filter; Komelia sends them back as `age_rating=` values.',
    source: [
      ref('komelia', `${UI}/series/SeriesFilterState.kt`, 'initialize'),
      ref('komga', `${REST}/ReferentialV1Controller.kt`, 'getAgeRatings'),
    ],
  },
];

/**
 * Komga's content rule (KomgaUser.isContentAllowed), applied to a series' `ageRating` and `sharingLabels`:
 * with ALLOW_ONLY the rating must be ≤ age (a series without rating fails) **or** the series has an allowed label
 * (when labelsAllow is set); with only labelsAllow a label must match; then EXCLUDE hides rating ≥ age (no rating
 * passes) and any labelsExclude hides. Labels compare lower-cased. Admins skip library checks, not this one.
 */
export function komgaContentAllowed(
  user: Pick<z.infer<typeof KomeliaUserDto>, 'ageRestriction' | 'labelsAllow' | 'labelsExclude'>,
  series: { ageRating: number | null; sharingLabels: string[] },
): boolean {
  const labels = new Set(series.sharingLabels.map((l) => l.trim().toLowerCase()).filter(Boolean));
  const exclude = new Set(user.labelsExclude.map((l) => l.toLowerCase()));
  const allow = user.labelsAllow.map((l) => l.toLowerCase()).filter((l) => !exclude.has(l));
  const r = user.ageRestriction;
  const ageAllowed = r?.restriction === 'ALLOW_ONLY' ? series.ageRating !== null && series.ageRating <= r.age : null;
  const labelAllowed = allow.length > 0 ? allow.some((l) => labels.has(l)) : null;
  const allowed =
    ageAllowed === null ? labelAllowed !== false : labelAllowed === null ? ageAllowed : ageAllowed || labelAllowed;
  if (!allowed) return false;
  if (r?.restriction === 'EXCLUDE' && series.ageRating !== null && series.ageRating >= r.age) return false;
  return ![...exclude].some((l) => labels.has(l));
}
