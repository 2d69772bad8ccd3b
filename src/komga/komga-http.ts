/** Request helpers shared by the Komga route files: query lists, JSON bodies, the caller. */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { badRequest } from '../lib/errors';
import type { MediaResponse } from '../pages/media-response';
import type { AppEnv } from '../env';
import { KomgaCatalogRepository } from '../repositories/komga-catalog.repository';
import { komgaRequire } from './komga-auth';
import { KomgaService } from './komga.service';
import { type KomgaPaging, parsePaging } from './komga-paging';

/** The Komga app as its route files register on it (komga.app.ts builds it). */
export type KomgaApp = Hono<AppEnv>;
export type KomgaContext = Context<AppEnv>;

/** Every value of a query parameter (Spring binds repeated and comma-separated lists alike). */
export const queryValues = (c: KomgaContext) => (name: string) => c.req.queries(name) ?? [];

export const pagingOf = (c: KomgaContext): KomgaPaging => parsePaging(queryValues(c));

/** The Komga service over this request's services (a few objects, built when a handler needs them). */
export function komgaOf(c: KomgaContext): KomgaService {
  const services = c.get('services');
  return new KomgaService(services, new KomgaCatalogRepository(services.db));
}

/** A media service's result (page, cover, file) as the response; `c.body` keeps the headers set earlier. */
export function sendMedia(c: KomgaContext, result: MediaResponse): Response {
  return result.body === null
    ? c.body(null, result.status, result.headers)
    : c.body(result.body, result.status as 200, result.headers);
}

/** The body parsed and validated; malformed JSON or a wrong shape is a 400, never a 500. */
export async function jsonBody<T extends z.ZodType>(c: KomgaContext, schema: T, optional = false): Promise<z.infer<T>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('Malformed JSON in request body');
    }
  } else if (!optional) {
    throw badRequest('A JSON request body is required');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`Invalid request body: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export { PROGRESS_READ as READ_PROGRESS, PROGRESS_WRITE as WRITE_PROGRESS } from '../auth/permissions';

export { komgaRequire as need };
