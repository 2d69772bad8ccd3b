// Rewrites the initial page count of the (single, module-defined) memory in a wasm binary. Only the memory
// section (id 5) changes; every other byte is copied as is.

function readLeb(bytes, offset) {
  let value = 0;
  let shift = 0;
  let position = offset;
  for (;;) {
    const byte = bytes[position++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: position };
  }
}

function writeLeb(value) {
  const out = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    out.push(byte);
  } while (rest > 0);
  return out;
}

/** @param {Uint8Array} wasm @param {number} initialPages @returns {Uint8Array} */
export function patchInitialMemory(wasm, initialPages) {
  const bytes = new Uint8Array(wasm);
  let offset = 8; // magic + version
  while (offset < bytes.length) {
    const id = bytes[offset];
    const size = readLeb(bytes, offset + 1);
    const bodyStart = size.next;
    const bodyEnd = bodyStart + size.value;
    if (id === 5) {
      const count = readLeb(bytes, bodyStart);
      if (count.value !== 1) throw new Error(`expected one memory, found ${count.value}`);
      const flags = bytes[count.next];
      const min = readLeb(bytes, count.next + 1);
      if (min.value < initialPages) throw new Error(`initial memory is already ${min.value} pages`);
      const rest = bytes.subarray(min.next, bodyEnd); // the maximum, when flags say there is one
      const body = [...writeLeb(1), flags, ...writeLeb(initialPages), ...rest];
      const section = [5, ...writeLeb(body.length), ...body];
      const out = new Uint8Array(offset + section.length + (bytes.length - bodyEnd));
      out.set(bytes.subarray(0, offset), 0);
      out.set(section, offset);
      out.set(bytes.subarray(bodyEnd), offset + section.length);
      return out;
    }
    offset = bodyEnd;
  }
  throw new Error('no memory section (is the memory imported?)');
}
