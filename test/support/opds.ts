/**
 * Reading OPDS responses in the workers tests as an app does: fetch a URL with credentials, pick the
 * links of an Atom feed or entry by rel/title, and fill in OPDS-PSE templates. (The node tests parse
 * the same feeds with real client libraries; here plain attribute reading keeps the runtime light.)
 */
import { SELF } from 'cloudflare:test';
import { authHeaders, type Credentials } from './http';

export interface Fetched {
  status: number;
  headers: Headers;
  text: string;
  bytes: Uint8Array;
}

/** GET (or another method) of an absolute URL or a path, as a reader app sends it. */
export async function fetchAs(
  url: string,
  auth: Credentials,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Fetched> {
  const absolute = url.startsWith('http') ? url : `http://longbox.test${url}`;
  const response = await SELF.fetch(absolute, {
    method: init.method ?? 'GET',
    headers: { ...authHeaders(auth), ...init.headers },
    body: init.body,
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes) };
}

export type Attrs = Record<string, string>;
/** A link always has rel and href in the feeds under test. */
export type Link = Attrs & { rel: string; href: string };

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export function attributesOf(tag: string): Attrs {
  const attrs: Attrs = {};
  for (const match of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[match[1] as string] = decode(match[2] as string);
  return attrs;
}

/** The `<link>` elements of a piece of Atom (a feed's own links: pass the text before the first entry). */
export function links(xml: string): Link[] {
  return [...xml.matchAll(/<link\b[^>]*\/>/g)].map((m) => attributesOf(m[0]) as Link);
}

export function feedHead(xml: string): string {
  const first = xml.indexOf('<entry>');
  return first < 0 ? xml : xml.slice(0, first);
}

export function entries(xml: string): string[] {
  return [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1] as string);
}

export function textOf(xml: string, name: string): string | undefined {
  const match = xml.match(new RegExp(`<${name}(?: [^>]*)?>([\\s\\S]*?)</${name}>`));
  return match ? decode(match[1] as string) : undefined;
}

export function entryTitled(xml: string, title: string): string {
  const found = entries(xml).find((entry) => textOf(entry, 'title') === title);
  if (!found) throw new Error(`no entry titled ${title} in:\n${xml.slice(0, 3000)}`);
  return found;
}

export function linkWithRel(xml: string, rel: string): Link {
  const found = links(xml).find((l) => l.rel === rel);
  if (!found) throw new Error(`no link rel=${rel} in:\n${xml.slice(0, 2000)}`);
  return found;
}

export const PSE_REL = 'http://vaemendis.net/opds-pse/stream';
export const ACQUISITION_REL = 'http://opds-spec.org/acquisition';

/** What KOReader does with a PSE href: literal replacement of both placeholders. */
export const streamUrl = (href: string, pageNumber: number, maxWidth: number | string) =>
  href.replace('{pageNumber}', String(pageNumber)).replace('{maxWidth}', String(maxWidth));
