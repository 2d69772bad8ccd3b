/** Writing XML text: escaping and elements, enough for Atom feeds and OpenSearch descriptions. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text or attribute content. Characters XML 1.0 cannot carry at all (C0 controls other than tab, CR
 * and LF, lone surrogates, U+FFFE/U+FFFF) are dropped: a book title read from a file may hold them,
 * and one such character would make the whole feed unparseable.
 */
export function escapeXml(text: string): string {
  return text
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly the characters XML 1.0 cannot carry
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      '',
    )
    .replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

export type Attributes = Record<string, string | number | undefined>;

function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');
}

/** `<name attrs>children</name>`; children are XML already (use `text` for plain text). */
export function element(name: string, attrs: Attributes = {}, ...children: string[]): string {
  const inner = children.join('');
  return inner === '' ? `<${name}${attributes(attrs)}/>` : `<${name}${attributes(attrs)}>${inner}</${name}>`;
}

/** An element holding plain text. */
export const text = (name: string, value: string, attrs: Attributes = {}) =>
  `<${name}${attributes(attrs)}>${escapeXml(value)}</${name}>`;

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
