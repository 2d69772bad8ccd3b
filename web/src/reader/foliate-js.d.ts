/** The parts of foliate-js (plain ES modules without types) the reader uses. */

declare module 'foliate-js/vendor/zip.js' {
  export interface ZipEntry {
    filename: string;
    uncompressedSize: number;
    directory: boolean;
    getData?<T>(writer: { getData(): Promise<T> }): Promise<T>;
  }
  export class ZipReader {
    constructor(reader: {
      size: number;
      init(): Promise<void>;
      readUint8Array(offset: number, length: number): Promise<Uint8Array>;
    });
    getEntries(): Promise<ZipEntry[]>;
    close(): Promise<void>;
  }
  export class TextWriter {
    constructor(encoding?: string);
    getData(): Promise<string>;
  }
  export class BlobWriter {
    constructor(type?: string);
    getData(): Promise<Blob>;
  }
  export class BlobReader {
    constructor(blob: Blob);
  }
  export function configure(options: { useWebWorkers?: boolean }): void;
}

declare module 'foliate-js/epub.js' {
  export interface TocItem {
    label: string;
    href: string;
    subitems?: TocItem[] | null;
  }
  export interface FoliateBook {
    metadata?: { title?: unknown };
    toc?: TocItem[];
    sections: { id: string; linear?: string; size: number; resolveHref?(href: string): string }[];
    /** Whether a (resolved) link leads out of the book. */
    isExternal?(href: string): boolean;
    dir?: string;
    /** Fires a cancellable-by-replacement "data" event for every resource before it becomes a blob: URL. */
    transformTarget?: EventTarget;
  }
  export class EPUB {
    constructor(loader: unknown);
    init(): Promise<FoliateBook>;
  }
}

declare module 'foliate-js/view.js' {
  export class View extends HTMLElement {}
}
