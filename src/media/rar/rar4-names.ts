/**
 * RAR 1.5–4.x file names. Without the unicode flag the name is in the packer's code page (decoded as
 * UTF-8 when valid, else Latin-1); with it, the field holds a byte name, a zero, then the compact
 * unicode encoding of unrar's encname.cpp (or UTF-8 alone when there is no zero).
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** String.fromCharCode in slices: a name field may hold 64 KiB, too many arguments for one call. */
function fromCodes(codes: ArrayLike<number>): string {
  let text = '';
  for (let i = 0; i < codes.length; i += 4096) {
    text += String.fromCharCode(...Array.prototype.slice.call(codes, i, i + 4096));
  }
  return text;
}

const latin1 = (bytes: Uint8Array) => fromCodes(bytes);

function legacyName(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1(bytes);
  }
}

/** unrar EncodeFileName::Decode: 2-bit opcodes per output char, high byte shared. */
function decodeUnicode(name: Uint8Array, encoded: Uint8Array): string {
  const out: number[] = [];
  const max = 0x10000;
  let position = 0;
  const highByte = encoded.length > 0 ? encoded[position++]! : 0;
  let flags = 0;
  let flagBits = 0;
  while (position < encoded.length && out.length < max) {
    if (flagBits === 0) {
      flags = encoded[position++]!;
      flagBits = 8;
    }
    switch (flags >> 6) {
      case 0:
        if (position >= encoded.length) break;
        out.push(encoded[position++]!);
        break;
      case 1:
        if (position >= encoded.length) break;
        out.push(encoded[position++]! + (highByte << 8));
        break;
      case 2:
        if (position + 1 >= encoded.length) break;
        out.push(encoded[position]! + (encoded[position + 1]! << 8));
        position += 2;
        break;
      default: {
        if (position >= encoded.length) break;
        let length = encoded[position++]!;
        if (length & 0x80) {
          if (position >= encoded.length) break;
          const correction = encoded[position++]!;
          for (length = (length & 0x7f) + 2; length > 0 && out.length < max; length--) {
            out.push((((name[out.length] ?? 0) + correction) & 0xff) | (highByte << 8));
          }
        } else {
          for (length += 2; length > 0 && out.length < max; length--) out.push(name[out.length] ?? 0);
        }
      }
    }
    flags = (flags << 2) & 0xff;
    flagBits -= 2;
  }
  return fromCodes(out);
}

export function decodeRar4Name(field: Uint8Array, unicode: boolean): string {
  if (!unicode) return legacyName(field);
  const zero = field.indexOf(0);
  if (zero < 0) return legacyName(field);
  return decodeUnicode(field.subarray(0, zero), field.subarray(zero + 1));
}
