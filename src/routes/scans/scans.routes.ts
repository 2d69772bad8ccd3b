import { z } from '@hono/zod-openapi';
import { ScanStatusSchema, StartScanQuerySchema } from '../../schemas/scan.schema';
import { contractsFor, json } from '../contract';

const scans = contractsFor('Scanning');
const LibraryParams = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  startScan: scans.post('/libraries/{id}/scan', 'LibrariesWrite', { summary: 'Start a scan (normal: new or changed files; deep: re-analyze all)', params: LibraryParams, query: StartScanQuerySchema, 202: json(ScanStatusSchema, 'Scan started'), errors: [400, 404, 409] }),
  getScanStatus: scans.get('/libraries/{id}/scan-status', 'LibrariesRead', { summary: 'Current (or last) scan status of a library', params: LibraryParams, 200: json(ScanStatusSchema, 'Scan status'), errors: [400, 404] }),
  cancelScan: scans.post('/libraries/{id}/scan/cancel', 'LibrariesWrite', { summary: 'Cancel the running scan', params: LibraryParams, 202: json(ScanStatusSchema, 'Cancellation requested'), errors: [400, 404, 409] }),
  listActiveScans: scans.get('/scans/active', 'LibrariesRead', { summary: 'Scans running now', 200: json(z.array(ScanStatusSchema), 'Active scans') }),
};
