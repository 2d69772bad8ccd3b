import { createRouter } from '../../http/router';
import { act, answer } from '../handlers';
import { filesRouter } from './files';
import { contracts as routes } from './libraries.routes';

// biome-ignore format: a table of endpoints, one service call per line
export const librariesRouter = createRouter()
  .openapi(...answer(routes.listLibraries, ({ services, viewer }) => services.libraries.list(viewer)))
  .openapi(...answer(routes.createLibrary, ({ services, viewer, body }) => services.libraries.create(viewer, body), 201))
  .openapi(...answer(routes.getLibrary, ({ services, viewer, param }) => services.libraries.get(viewer, param.id)))
  .openapi(...answer(routes.updateLibrary, ({ services, viewer, param, body }) => services.libraries.update(viewer, param.id, body)))
  .openapi(...act(routes.deleteLibrary, ({ services, viewer, param }) => services.libraries.delete(viewer, param.id)))
  .route('/', filesRouter);
