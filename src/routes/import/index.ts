import { createRouter } from '../../http/router';
import { whenChecked } from '../../middleware/caller';
import { answer } from '../handlers';
import { contracts as routes } from './import.routes';

// biome-ignore format: a table of endpoints, one service call per line
export const importRouter = createRouter()
  .openapi(...answer(routes.matchBooks, async ({ services, body }) => ({ matches: await services.peerImport.catalog.matchBooks(body.books) })))
  .openapi(...answer(routes.importUsers, async ({ services, viewer, body, checked }) => ({ results: await services.peerImport.users.importUsers(viewer, body, checked) })))
  .openapi(...answer(routes.importProgress, ({ services, body, checked }) => services.peerImport.reading.importProgress(body.source, body.entries, checked)))
  .openapi(...answer(routes.importWantToRead, ({ services, body }) => services.peerImport.reading.importWantToRead(body)))
  .openapi(...answer(routes.importLists, async ({ services, body, checked }) => ({ results: await services.peerImport.lists.importLists(body.source, body.lists, checked) })))
  .openapi(...answer(routes.importMetadata, async ({ services, principal, body, checked }) => ({ results: await services.peerImport.catalog.importMetadata(principal, body, checked) })))
  .openapi(...answer(routes.importApiKeys, async ({ services, body, checked }) => ({ results: await services.peerImport.users.importApiKeys(body, checked) })))
  .openapi(routes.importCover, async (c) => {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    return c.json(await c.get('services').peerImport.catalog.importCover(c.get('principal'), c.req.valid('query'), bytes, () => whenChecked(c)), 200);
  });
