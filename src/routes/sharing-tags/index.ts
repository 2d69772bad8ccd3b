import { createRouter } from '../../http/router';
import { requestViewer } from '../../http/progress-actor';
import type { SharingLabelRecord } from '../../repositories/sharing-labels.repository';
import type { UserAccessRecord } from '../../repositories/user-access.repository';
import { noContent, paged } from '../handlers';
import { contracts as routes } from './sharing-tags.routes';

const toSummary = ({ id, name, description }: SharingLabelRecord) => ({ id, name, description });
const toGrant = (g: UserAccessRecord['labels'][number]) => ({
  sharingTagId: g.labelId,
  sharingTagName: g.name,
  accessMode: g.mode,
  createdAt: g.createdAt,
});

export const sharingTagsRouter = createRouter()
  .openapi(...paged(routes.listSharingTags, ({ services, viewer }, page) => services.sharingTags.list(viewer, page)))
  .openapi(routes.createSharingTag, async (c) =>
    c.json(await c.get('services').sharingTags.create(requestViewer(c), c.req.valid('json')), 201),
  )
  .openapi(routes.getSharingTag, async (c) =>
    c.json(await c.get('services').sharingTags.get(requestViewer(c), c.req.valid('param').id), 200),
  )
  .openapi(routes.updateSharingTag, async (c) => {
    const tags = c.get('services').sharingTags;
    return c.json(await tags.update(requestViewer(c), c.req.valid('param').id, c.req.valid('json')), 200);
  })
  .openapi(routes.deleteSharingTag, async (c) =>
    noContent(c, c.get('services').sharingTags.delete(c.req.valid('param').id)),
  )
  .openapi(routes.getSeriesSharingTags, async (c) => {
    const tags = await c.get('services').sharingTags.ofSeries(requestViewer(c), c.req.valid('param').id);
    return c.json(tags.map(toSummary), 200);
  })
  .openapi(routes.setSeriesSharingTags, async (c) => {
    const { sharingTagIds } = c.req.valid('json');
    const tags = await c
      .get('services')
      .sharingTags.setForSeries(c.get('principal'), c.req.valid('param').id, sharingTagIds);
    return c.json(tags.map(toSummary), 200);
  })
  .openapi(routes.addSeriesSharingTag, async (c) => {
    const { sharingTagId } = c.req.valid('json');
    const tags = await c
      .get('services')
      .sharingTags.addToSeries(c.get('principal'), c.req.valid('param').id, sharingTagId);
    return c.json(tags.map(toSummary), 200);
  })
  .openapi(routes.removeSeriesSharingTag, async (c) => {
    const { id, tagId } = c.req.valid('param');
    return noContent(c, c.get('services').sharingTags.removeFromSeries(c.get('principal'), id, tagId));
  })
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
