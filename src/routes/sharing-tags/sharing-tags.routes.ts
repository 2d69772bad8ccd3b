import { GetPageQuerySchema } from '../../lib/pagination';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  CreateSharingTagBodySchema,
  ModifySeriesSharingTagBodySchema,
  SetSeriesSharingTagsBodySchema,
  SetUserSharingTagGrantBodySchema,
  SharingTagIdParamsSchema,
  SharingTagSchema,
  SeriesSharingTagsSchema,
  SharingTagPageSchema,
  UpdateSharingTagBodySchema,
  UserSharingTagGrantSchema,
  UserSharingTagGrantsSchema,
} from '../../schemas/sharing-tag.schema';
import { contractsFor, empty, json } from '../contract';

const tags = contractsFor('Sharing tags');
const RULE =
  'A user holding allowed tags sees only series carrying one of them (or passing an ALLOW_ONLY age restriction); ' +
  'a series carrying a denied tag is hidden from them. Changes apply from the next request.';
const HIDDEN = 'A series you cannot see answers 404, exactly like a missing one.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listSharingTags: tags.get('/admin/sharing-tags', 'UsersRead', { summary: 'Sharing tags by name, with the series you see carrying each and the users holding it (UsersRead)', description: RULE, query: GetPageQuerySchema, 200: json(SharingTagPageSchema, 'A page of tags'), errors: [400] }),
  createSharingTag: tags.post('/admin/sharing-tags', 'UsersWrite', { summary: 'Create a sharing tag (UsersWrite); names are unique ignoring case', body: CreateSharingTagBodySchema, 201: json(SharingTagSchema, 'The new tag'), errors: [400, 409] }),
  getSharingTag: tags.get('/admin/sharing-tags/{id}', 'UsersRead', { summary: 'A sharing tag (UsersRead)', params: IdParamSchema, 200: json(SharingTagSchema, 'The tag'), errors: [400, 404] }),
  updateSharingTag: tags.put('/admin/sharing-tags/{id}', 'UsersWrite', { summary: 'Rename a sharing tag or change its description (UsersWrite); omitted fields stay', params: IdParamSchema, body: UpdateSharingTagBodySchema, 200: json(SharingTagSchema, 'The updated tag'), errors: [400, 404, 409] }),
  deleteSharingTag: tags.delete('/admin/sharing-tags/{id}', 'UsersWrite', { summary: 'Delete a sharing tag: it leaves every series and every user (UsersWrite)', params: IdParamSchema, 204: empty('Deleted'), errors: [400, 404] }),
  getSeriesSharingTags: tags.get('/series/{id}/sharing-tags', 'SeriesRead', { summary: "A series' sharing tags (SeriesRead)", description: HIDDEN, params: IdParamSchema, 200: json(SeriesSharingTagsSchema, 'The tags, by name'), errors: [400, 404] }),
  setSeriesSharingTags: tags.put('/series/{id}/sharing-tags', 'UsersWrite', { summary: "Replace a series' sharing tags and lock them (UsersWrite)", description: `${HIDDEN} Unknown tag ids are a 400 naming them; nothing changes.`, params: IdParamSchema, body: SetSeriesSharingTagsBodySchema, 200: json(SeriesSharingTagsSchema, "The series' tags"), errors: [400, 404] }),
  addSeriesSharingTag: tags.post('/series/{id}/sharing-tags', 'UsersWrite', { summary: 'Put one sharing tag on a series and lock its tags (UsersWrite)', description: HIDDEN, params: IdParamSchema, body: ModifySeriesSharingTagBodySchema, 200: json(SeriesSharingTagsSchema, "The series' tags"), errors: [400, 404] }),
  removeSeriesSharingTag: tags.delete('/series/{id}/sharing-tags/{tagId}', 'UsersWrite', { summary: 'Take one sharing tag off a series and lock its tags (UsersWrite)', description: `${HIDDEN} 404 too when the series does not carry the tag.`, params: SharingTagIdParamsSchema, 204: empty('Removed'), errors: [400, 404] }),
  getUserSharingTags: tags.get('/users/{id}/sharing-tags', 'UsersRead', { summary: "A user's sharing-tag grants (UsersRead)", params: IdParamSchema, 200: json(UserSharingTagGrantsSchema, 'The grants'), errors: [400, 404] }),
  setUserSharingTag: tags.put('/users/{id}/sharing-tags', 'UsersWrite', { summary: 'Grant a user one sharing tag, allowed or denied, keeping their other grants (UsersWrite)', description: `${RULE} An unknown tag is a 400; an account with limited access may only grant access within its own (403).`, params: IdParamSchema, body: SetUserSharingTagGrantBodySchema, 200: json(UserSharingTagGrantSchema, 'The grant'), errors: [400, 404] }),
  removeUserSharingTag: tags.delete('/users/{id}/sharing-tags/{tagId}', 'UsersWrite', { summary: "Take back a user's grant of a sharing tag (UsersWrite)", description: '404 when the user holds no grant of the tag.', params: SharingTagIdParamsSchema, 204: empty('Removed'), errors: [400, 404] }),
  getMySharingTags: tags.get('/user/sharing-tags', 'signed-in', { summary: 'Your own sharing-tag grants', 200: json(UserSharingTagGrantsSchema, 'Your grants') }),
};
