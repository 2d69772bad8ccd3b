/**
 * Defensive XML for metadata files (ComicInfo.xml, container.xml, OPF): namespace prefixes dropped,
 * every value kept as text (no number guessing: `007` stays `007`), entity expansion capped by the
 * parser, and a document that does not parse yields null instead of failing the book.
 */
import { XMLParser } from 'fast-xml-parser';

export type XmlNode = Record<string, unknown>;

const decoder = new TextDecoder('utf-8');

export function parseXml(bytes: Uint8Array): XmlNode | null {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // Elements that may repeat are always arrays, so callers never branch on one-vs-many.
    isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
  });
  try {
    const parsed = parser.parse(decoder.decode(bytes));
    return parsed && typeof parsed === 'object' ? (parsed as XmlNode) : null;
  } catch {
    return null;
  }
}

/** Child elements named `name` (always an array; empty when absent). */
export function children(node: unknown, name: string): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const value = (node as XmlNode)[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

export function child(node: unknown, name: string): unknown {
  return children(node, name)[0];
}

/** Text content of an element (with or without attributes); null when empty. */
export function textOf(node: unknown): string | null {
  const value = node && typeof node === 'object' ? (node as XmlNode)['#text'] : node;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

export function attr(node: unknown, name: string): string | null {
  if (!node || typeof node !== 'object') return null;
  const value = (node as XmlNode)[`@${name}`];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Text of the first child named `name`. */
export function childText(node: unknown, name: string): string | null {
  return textOf(child(node, name));
}
