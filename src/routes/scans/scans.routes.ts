import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent, SECURITY } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import { ScanStatusSchema, StartScanQuerySchema } from '../../schemas/scan.schema';

const tags = ['Scanning'];
const security = SECURITY;
const LibraryParams = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) });

export const startScan = createRoute({
  method: 'post',
  path: '/libraries/{id}/scan',
  tags,
  security,
  summary: 'Start a scan (normal: new or changed files; deep: re-analyze all)',
  middleware: [authenticate('LibrariesWrite')] as const,
  request: { params: LibraryParams, query: StartScanQuerySchema },
  responses: { 202: jsonContent(ScanStatusSchema, 'Scan started'), ...errorResponses(400, 401, 403, 404, 409) },
});

export const getScanStatus = createRoute({
  method: 'get',
  path: '/libraries/{id}/scan-status',
  tags,
  security,
  summary: 'Current (or last) scan status of a library',
  middleware: [authenticate('LibrariesRead')] as const,
  request: { params: LibraryParams },
  responses: { 200: jsonContent(ScanStatusSchema, 'Scan status'), ...errorResponses(400, 401, 403, 404) },
});

export const cancelScan = createRoute({
  method: 'post',
  path: '/libraries/{id}/scan/cancel',
  tags,
  security,
  summary: 'Cancel the running scan',
  middleware: [authenticate('LibrariesWrite')] as const,
  request: { params: LibraryParams },
  responses: {
    202: jsonContent(ScanStatusSchema, 'Cancellation requested'),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export const listActiveScans = createRoute({
  method: 'get',
  path: '/scans/active',
  tags,
  security,
  summary: 'Scans running now',
  middleware: [authenticate('LibrariesRead')] as const,
  responses: { 200: jsonContent(z.array(ScanStatusSchema), 'Active scans'), ...errorResponses(401, 403) },
});
