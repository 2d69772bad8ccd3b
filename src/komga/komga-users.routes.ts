/**
 * Komga's user administration and content-restriction referentials (test/support/clients/komelia-users.ts):
 * `GET/POST /api/v2/users`, `PATCH/DELETE /api/v2/users/{id}`, password changes and authentication activity
 * (`/api/v2/users/{me|id}/password`, `…/authentication-activity`), `GET /api/v1/sharing-labels`,
 * `GET /api/v1/age-ratings`, and the sharing part of `PATCH /api/v1/series/{id}/metadata`.
 */
import { z } from 'zod';
import { requestViewer } from '../http/progress-actor';
import { badRequest } from '../lib/errors';
import { jsonBody, type KomgaApp, type KomgaContext, komgaOf, need, pagingOf, queryValues } from './komga-http';
import {
  KomgaPasswordUpdateSchema,
  KomgaUserCreationSchema,
  KomgaUsersService,
  KomgaUserUpdateSchema,
} from './komga-users.service';

const usersOf = (c: KomgaContext) => new KomgaUsersService(c.get('services'));

/** `library_id` as Komga binds it: repeated or comma-separated. */
const libraryIdsOf = (c: KomgaContext) =>
  queryValues(c)('library_id')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/** The sharing fields of Komga's `SeriesMetadataUpdateDto`; the others belong to the metadata handler. */
export const SeriesSharingUpdateSchema = z.object({
  sharingLabels: z.array(z.string().max(100)).max(1000).nullable().optional(),
  sharingLabelsLock: z.boolean().nullable().optional(),
  ageRating: z.number().int().min(0).max(255).nullable().optional(),
  ageRatingLock: z.boolean().nullable().optional(),
});

/**
 * Applies the sharing part of a series metadata PATCH (the series metadata handler calls this with the
 * body it parsed): labels replaced by name (unknown ones created), the age rating and both locks as sent.
 */
/** Applies the body's sharing labels and age rating; true when the series' rating or labels changed. */
export async function applySeriesSharingUpdate(c: KomgaContext, seriesId: string, body: unknown): Promise<boolean> {
  const parsed = SeriesSharingUpdateSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`Invalid request body: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const { sharingLabels, sharingLabelsLock, ageRating, ageRatingLock } = parsed.data;
  const touches = [sharingLabels, sharingLabelsLock, ageRating, ageRatingLock].some((v) => v !== undefined);
  if (!touches) return false;
  // Changing labels or the rating needs UsersWrite: the service decides (an edit changing nothing passes).
  return c.get('services').sharingTags.editSeriesContent(c.get('principal'), seriesId, {
    sharingLabels: sharingLabels === null ? [] : sharingLabels,
    sharingLabelsLock: sharingLabelsLock ?? undefined,
    ageRating,
    ageRatingLock: ageRatingLock ?? undefined,
  });
}

export function registerUserRoutes(app: KomgaApp) {
  // Before the `{id}` routes: "me" is not an id.
  app.patch('/api/v2/users/me/password', async (c) => {
    const body = await jsonBody(c, KomgaPasswordUpdateSchema);
    await usersOf(c).changePassword(c.get('principal'), 'me', body);
    return c.body(null, 204);
  });
  app.get('/api/v2/users/me/authentication-activity', async (c) =>
    c.json(await usersOf(c).activity(pagingOf(c), c.get('principal').user.id)),
  );
  app.get('/api/v2/users/authentication-activity', need('UsersRead'), async (c) =>
    c.json(await usersOf(c).activity(pagingOf(c))),
  );
  // An admin's, or the user's own (the service checks which).
  app.patch('/api/v2/users/:id/password', async (c) => {
    const body = await jsonBody(c, KomgaPasswordUpdateSchema);
    await usersOf(c).changePassword(c.get('principal'), c.req.param('id'), body);
    return c.body(null, 204);
  });
  app.get('/api/v2/users/:id/authentication-activity/latest', async (c) =>
    c.json(await usersOf(c).latestActivity(c.get('principal'), c.req.param('id'), c.req.query('apikey_id'))),
  );

  app.get('/api/v2/users', need('UsersRead'), async (c) => c.json(await usersOf(c).list()));
  app.post('/api/v2/users', need('UsersWrite'), async (c) => {
    const body = await jsonBody(c, KomgaUserCreationSchema);
    return c.json(await usersOf(c).create(c.get('principal'), body), 201);
  });
  app.patch('/api/v2/users/:id', need('UsersWrite'), async (c) => {
    const body = await jsonBody(c, KomgaUserUpdateSchema);
    await usersOf(c).update(c.get('principal'), c.req.param('id'), body);
    return c.body(null, 204);
  });
  app.delete('/api/v2/users/:id', need('UsersDelete'), async (c) => {
    await usersOf(c).delete(c.get('principal'), c.req.param('id'));
    return c.body(null, 204);
  });

  app.get('/api/v1/sharing-labels', need('SeriesRead'), async (c) =>
    c.json(await c.get('services').sharingTags.visibleNames(requestViewer(c), libraryIdsOf(c))),
  );
  app.get('/api/v1/age-ratings', need('SeriesRead'), async (c) =>
    c.json(await komgaOf(c).ageRatings(requestViewer(c), libraryIdsOf(c))),
  );
}
