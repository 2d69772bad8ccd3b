import { z } from '@hono/zod-openapi';
import { ScanStatusSchema, StartScanQuerySchema } from '../../schemas/scan.schema';
import { contractsFor, json } from '../contract';

const route = contractsFor('Scanning');
const LibraryParams = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });

export const startScan = route.post('/libraries/{id}/scan', 'LibrariesWrite', {
  summary: 'Start a scan (normal: new or changed files; deep: re-analyze all)',
  params: LibraryParams,
  query: StartScanQuerySchema,
  responses: { 202: json(ScanStatusSchema, 'Scan started') },
  errors: [400, 404, 409],
});
export const getScanStatus = route.get('/libraries/{id}/scan-status', 'LibrariesRead', {
  summary: 'Current (or last) scan status of a library',
  params: LibraryParams,
  responses: { 200: json(ScanStatusSchema, 'Scan status') },
  errors: [400, 404],
});
export const cancelScan = route.post('/libraries/{id}/scan/cancel', 'LibrariesWrite', {
  summary: 'Cancel the running scan',
  params: LibraryParams,
  responses: { 202: json(ScanStatusSchema, 'Cancellation requested') },
  errors: [400, 404, 409],
});
export const listActiveScans = route.get('/scans/active', 'LibrariesRead', {
  summary: 'Scans running now',
  responses: { 200: json(z.array(ScanStatusSchema), 'Active scans') },
});
