import { createRouter } from '../../http/router';
import type { SharingLabelRecord } from '../../repositories/sharing-labels.repository';
import type { UserAccessRecord } from '../../repositories/user-access.repository';
import { act, answer, noContent, paged } from '../handlers';
import { contracts as routes } from './sharing-tags.routes';

const toSummary = ({ id, name, description }: SharingLabelRecord) => ({ id, name, description });
const toGrant = (g: UserAccessRecord['labels'][number]) => ({
  sharingTagId: g.labelId,
  sharingTagName: g.name,
  accessMode: g.mode,
  createdAt: g.createdAt,
});

// biome-ignore format: a table of endpoints, one service call per line (the user grants act as the principal)
export const sharingTagsRouter = createRouter()
  .openapi(...paged(routes.listSharingTags, ({ services, viewer }, page) => services.sharingTags.list(viewer, page)))
  .openapi(...answer(routes.createSharingTag, ({ services, viewer, body }) => services.sharingTags.create(viewer, body), 201))
  .openapi(...answer(routes.getSharingTag, ({ services, viewer, param }) => services.sharingTags.get(viewer, param.id)))
  .openapi(...answer(routes.updateSharingTag, ({ services, viewer, param, body }) => services.sharingTags.update(viewer, param.id, body)))
  .openapi(...act(routes.deleteSharingTag, ({ services, param }) => services.sharingTags.delete(param.id)))
  .openapi(...answer(routes.getSeriesSharingTags, async ({ services, viewer, param }) => (await services.sharingTags.ofSeries(viewer, param.id)).map(toSummary)))
  .openapi(...answer(routes.setSeriesSharingTags, async ({ services, principal, param, body }) => (await services.sharingTags.setForSeries(principal, param.id, body.sharingTagIds)).map(toSummary)))
  .openapi(...answer(routes.addSeriesSharingTag, async ({ services, principal, param, body }) => (await services.sharingTags.addToSeries(principal, param.id, body.sharingTagId)).map(toSummary)))
  .openapi(...act(routes.removeSeriesSharingTag, ({ services, principal, param }) => services.sharingTags.removeFromSeries(principal, param.id, param.tagId)))
  .openapi(routes.getUserSharingTags, async (c) => {
    const { id } = c.req.valid('param');
    const grants = await c.get('services').users.sharingTags(id);
    return c.json({ userId: id, grants: grants.map(toGrant) }, 200);
  })
  .openapi(routes.setUserSharingTag, async (c) => {
    const { sharingTagId, accessMode } = c.req.valid('json');
    const users = c.get('services').users;
    const grant = await users.grantSharingTag(c.get('principal'), c.req.valid('param').id, sharingTagId, accessMode);
    return c.json(toGrant(grant), 200);
  })
  .openapi(routes.removeUserSharingTag, async (c) => {
    const { id, tagId } = c.req.valid('param');
    return noContent(c, c.get('services').users.revokeSharingTag(c.get('principal'), id, tagId));
  })
  .openapi(routes.getMySharingTags, async (c) => {
    const me = c.get('principal').user.id;
    const grants = (await c.get('services').userAccess.of(me)).labels;
    return c.json({ userId: me, grants: grants.map(toGrant) }, 200);
  });
