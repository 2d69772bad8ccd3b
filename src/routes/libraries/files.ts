/**
 * Upload routes (DECISIONS.md §Storage): `PUT /libraries/{id}/files/{path}` streams one file; the
 * `?uploads` / `?uploadId=` forms drive an R2 multipart upload for larger files.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { AppError, badRequest, issuesToDetails, summarizeIssues } from '../../lib/errors';
import { createRouter } from '../../http/router';
import { authenticate } from '../../middleware/authenticate';
import { requestViewer } from '../../http/progress-actor';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { CompleteMultipartBodySchema, MAX_PART_NUMBER } from '../../schemas/upload.schema';
import type { UploadBody } from '../../services/uploads.service';
import { FILE_ROUTES } from './files.routes';

/** Hono's `{.+}` lets the file path span segments; Hono decodes it (so `%2F` is a `/` here). */
const FILE_PATH = '/libraries/:id/files/:path{.+}';
/** A completion body lists at most 10,000 small parts; this route is outside the app's JSON limit. */
const MAX_COMPLETION_BYTES = 1024 * 1024;

interface FileTarget {
  libraryId: string;
  path: string;
  overwrite: boolean;
  uploadId: string | undefined;
}

function target(c: Context<AppEnv>): FileTarget {
  const id = IdParamSchema.safeParse({ id: c.req.param('id') });
  if (!id.success) {
    const details = issuesToDetails(id.error.issues);
    throw badRequest(summarizeIssues('path parameter', details), details);
  }
  const overwrite = c.req.query('overwrite');
  if (overwrite !== undefined && overwrite !== 'true' && overwrite !== 'false') {
    throw badRequest('overwrite must be true or false', [{ path: 'overwrite', message: 'must be true or false' }]);
  }
  const uploadId = c.req.query('uploadId');
  if (uploadId === '') throw badRequest('uploadId must not be empty', [{ path: 'uploadId', message: 'empty' }]);
  return { libraryId: id.data.id, path: c.req.param('path') ?? '', overwrite: overwrite === 'true', uploadId };
}

function uploadBody(c: Context<AppEnv>): UploadBody {
  return { stream: c.req.raw.body, contentLength: c.req.header('Content-Length') };
}

function partNumber(c: Context<AppEnv>): number {
  const text = c.req.query('partNumber');
  const value = Number(text);
  if (!text || !/^\d+$/.test(text) || value < 1 || value > MAX_PART_NUMBER) {
    throw badRequest(`partNumber must be an integer from 1 to ${MAX_PART_NUMBER}`, [
      { path: 'partNumber', message: `must be 1..${MAX_PART_NUMBER}` },
    ]);
  }
  return value;
}

async function completionParts(c: Context<AppEnv>) {
  const length = Number(c.req.header('Content-Length') ?? Number.NaN);
  if (!(length <= MAX_COMPLETION_BYTES)) {
    throw new AppError(
      'PayloadTooLarge',
      `Completion body must declare a Content-Length of at most ${MAX_COMPLETION_BYTES} bytes`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    throw badRequest('Malformed JSON in request body');
  }
  const parsed = CompleteMultipartBodySchema.safeParse(json);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues);
    throw badRequest(summarizeIssues('request body', details), details);
  }
  return parsed.data.parts;
}

export const filesRouter = createRouter();
filesRouter
  .put(FILE_PATH, authenticate('LibrariesWrite'), async (c) => {
    const { libraryId, path, overwrite, uploadId } = target(c);
    const uploads = c.get('services').uploads;
    if (uploadId === undefined) {
      return c.json(await uploads.putFile(requestViewer(c), libraryId, path, uploadBody(c), overwrite), 201);
    }
    return c.json(
      await uploads.uploadPart(requestViewer(c), libraryId, path, uploadId, partNumber(c), uploadBody(c)),
      200,
    );
  })
  .post(FILE_PATH, authenticate('LibrariesWrite'), async (c) => {
    const { libraryId, path, overwrite, uploadId } = target(c);
    const uploads = c.get('services').uploads;
    if (c.req.query('uploads') !== undefined) {
      return c.json(await uploads.createMultipart(requestViewer(c), libraryId, path, overwrite), 200);
    }
    if (uploadId === undefined) {
      throw badRequest('POST needs ?uploads (start a multipart upload) or ?uploadId= (complete one)');
    }
    const parts = await completionParts(c);
    return c.json(await uploads.completeMultipart(requestViewer(c), libraryId, path, uploadId, parts, overwrite), 201);
  })
  .delete(FILE_PATH, authenticate('LibrariesWrite'), async (c) => {
    const { libraryId, path, uploadId } = target(c);
    if (uploadId === undefined) {
      throw badRequest(
        'Book files are never deleted through the API; DELETE only aborts a multipart upload (?uploadId=)',
      );
    }
    await c.get('services').uploads.abortMultipart(requestViewer(c), libraryId, path, uploadId);
    return c.body(null, 204);
  });

for (const route of FILE_ROUTES) filesRouter.openAPIRegistry.registerPath(route);
