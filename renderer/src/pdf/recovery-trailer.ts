/**
 * A cross-reference section and trailer rebuilt from the objects in a PDF, for files PDFium refuses.
 * PDFium repairs wrong xref offsets itself, but a file with no trailer at all (DECISIONS.md §Books: "a PDF
 * whose cross-reference table is wrong or missing is read by rebuilding the table from the objects")
 * leaves it without a /Root. Appending a classic xref section that lists every `N G obj` header found in
 * the file, with a trailer naming the catalog, is what an incremental update would write: PDFium then
 * opens the file as it stands. The bytes are scanned where they already are (the wasm heap), never
 * copied into a JS string.
 */

const OBJ = [0x20, 0x6f, 0x62, 0x6a]; // " obj"
const CATALOG_LOOKAHEAD = 512;

interface FoundObject {
  number: number;
  generation: number;
  offset: number;
}

const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
const isWhite = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c;

/** `N G obj` headers: the last definition of each object number wins, as in an updated file. */
function findObjects(bytes: Uint8Array): { objects: Map<number, FoundObject>; catalog: FoundObject | null } {
  const objects = new Map<number, FoundObject>();
  let catalog: FoundObject | null = null;
  let at = bytes.indexOf(OBJ[1]!, 1);
  while (at !== -1) {
    const found = headerEndingAt(bytes, at);
    if (found) {
      objects.set(found.number, found);
      if (declaresCatalog(bytes, at + 3)) catalog = found;
    }
    at = bytes.indexOf(OBJ[1]!, at + 1);
  }
  return { objects, catalog };
}

/** Reads `N G obj` backwards from the `o` of `obj` at `at`; null unless the header is well formed. */
function headerEndingAt(bytes: Uint8Array, at: number): FoundObject | null {
  if (bytes[at + 1] !== OBJ[2] || bytes[at + 2] !== OBJ[3] || !isWhite(bytes[at - 1] ?? 0)) return null;
  const after = bytes[at + 3];
  if (after !== undefined && !isWhite(after) && after !== 0x3c /* < */ && after !== 0x5b /* [ */) return null;
  let end = at - 1;
  while (end > 0 && isWhite(bytes[end]!)) end--;
  let start = end;
  while (start > 0 && isDigit(bytes[start - 1]!)) start--;
  if (!isDigit(bytes[end]!) || end - start > 4) return null;
  const generation = Number(latin1(bytes, start, end + 1));
  let numberEnd = start - 1;
  if (numberEnd < 0 || !isWhite(bytes[numberEnd]!)) return null;
  while (numberEnd > 0 && isWhite(bytes[numberEnd]!)) numberEnd--;
  let numberStart = numberEnd;
  while (numberStart > 0 && isDigit(bytes[numberStart - 1]!)) numberStart--;
  if (!isDigit(bytes[numberEnd]!) || numberEnd - numberStart > 9) return null;
  if (numberStart > 0 && !isWhite(bytes[numberStart - 1]!)) return null;
  return { number: Number(latin1(bytes, numberStart, numberEnd + 1)), generation, offset: numberStart };
}

function declaresCatalog(bytes: Uint8Array, from: number): boolean {
  const text = latin1(bytes, from, Math.min(bytes.length, from + CATALOG_LOOKAHEAD));
  const body = text.slice(0, text.indexOf('endobj') === -1 ? undefined : text.indexOf('endobj'));
  return /\/Type\s*\/Catalog\b/.test(body);
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/**
 * The section to append after `bytes` (which end at offset `bytes.length`), or null when the file holds
 * no catalog object to name as /Root: then nothing can open it.
 */
export function recoveryTrailer(bytes: Uint8Array): Uint8Array | null {
  const { objects, catalog } = findObjects(bytes);
  if (!catalog) return null;
  const numbers = [...objects.keys()].sort((a, b) => a - b);
  const xrefStart = bytes.length + 1;
  const lines = ['', 'xref', '0 1', '0000000000 65535 f '];
  for (const number of numbers) {
    const object = objects.get(number)!;
    lines.push(
      `${number} 1`,
      `${String(object.offset).padStart(10, '0')} ${String(object.generation).padStart(5, '0')} n `,
    );
  }
  const size = (numbers.at(-1) ?? 0) + 1;
  lines.push('trailer', `<< /Size ${size} /Root ${catalog.number} ${catalog.generation} R >>`);
  lines.push('startxref', String(xrefStart), '%%EOF', '');
  return new TextEncoder().encode(lines.join('\n'));
}
