/** The admin import API's services (docs/DECISIONS.md §Coming from Komga or Kavita) for the service graph. */
import type { Database } from '../../db/client';
import type { ApiKeysRepository } from '../../repositories/api-keys.repository';
import { CollectionsRepository } from '../../repositories/collections.repository';
import { ImportsRepository } from '../../repositories/imports.repository';
import type { LibrariesRepository } from '../../repositories/libraries.repository';
import { ReadListsRepository } from '../../repositories/read-lists.repository';
import { ReadProgressRepository } from '../../repositories/read-progress.repository';
import type { SharingLabelsRepository } from '../../repositories/sharing-labels.repository';
import type { UsersRepository } from '../../repositories/users.repository';
import { WantToReadRepository } from '../../repositories/want-to-read.repository';
import type { CoversService } from '../covers.service';
import type { MetadataService } from '../metadata.service';
import type { SharingTagsService } from '../sharing-tags.service';
import { PeerCatalogService } from './peer-catalog.service';
import { PeerListsService } from './peer-lists.service';
import { PeerReadingService } from './peer-reading.service';
import { PeerUsersService } from './peer-users.service';

export interface PeerImportDeps {
  users: UsersRepository;
  apiKeys: ApiKeysRepository;
  libraries: LibrariesRepository;
  labels: SharingLabelsRepository;
  metadata: MetadataService;
  sharingTags: SharingTagsService;
  covers: CoversService;
}

export function createPeerImportServices(db: Database, deps: PeerImportDeps) {
  const imports = new ImportsRepository(db);
  return {
    catalog: new PeerCatalogService({ imports, ...deps }),
    users: new PeerUsersService({ imports, ...deps }),
    reading: new PeerReadingService({
      imports,
      progress: new ReadProgressRepository(db),
      wantToRead: new WantToReadRepository(db),
    }),
    lists: new PeerListsService({
      imports,
      collections: new CollectionsRepository(db),
      readLists: new ReadListsRepository(db),
    }),
  };
}
