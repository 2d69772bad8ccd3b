/**
 * ZIP entry names: UTF-8 when the archiver says so (flag bit 11 or the Info-ZIP Unicode Path extra
 * field), otherwise IBM code page 437 as the ZIP specification says — except that many macOS and Linux
 * tools write UTF-8 without setting the flag, so a name that is valid UTF-8 is read as UTF-8.
 */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const utf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function decodeCp437(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80];
  return text;
}

export function decodeEntryName(raw: Uint8Array, utf8Flag: boolean, unicodePath: Uint8Array | null): string {
  if (utf8Flag) return utf8.decode(raw);
  if (unicodePath) return utf8.decode(unicodePath);
  try {
    return strictUtf8.decode(raw);
  } catch {
    return decodeCp437(raw);
  }
}

/** Forward slashes, no leading `./` or `/`: Windows archivers sometimes store `\`. */
export function normalizeEntryName(name: string): string {
  return name.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
}
