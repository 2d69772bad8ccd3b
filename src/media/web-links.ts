/**
 * Web links from a metadata file (ComicInfo `Web`): one or more absolute http(s) URLs separated by
 * spaces or commas, each labelled with its site's host name (as Komga labels them), duplicates dropped.
 */
import type { WebLink } from './container';

/** The site a link points at: its host without `www.`. */
export function linkLabel(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

export function parseWebLinks(value: string | null): WebLink[] {
  if (!value) return [];
  const links: WebLink[] = [];
  for (const part of value.split(/[\s,]+/)) {
    if (!/^https?:\/\//i.test(part) || !URL.canParse(part)) continue;
    const url = new URL(part);
    if (!links.some((link) => link.url === url.href)) links.push({ label: linkLabel(url), url: url.href });
  }
  return links;
}
