/** Finds the book files below a local folder, with their paths relative to it in `/` form. */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export const BOOK_EXTENSIONS = ['.cbz', '.cbr', '.epub', '.pdf', '.zip', '.rar'] as const;

export interface LocalBook {
  absolutePath: string;
  /** Path below the imported folder with `/` separators: the path inside the library. */
  relativePath: string;
  size: number;
}

/** macOS resource forks and dot files are never books. */
const IGNORED = (name: string) => name.startsWith('.') || name === '__MACOSX';

export async function findBooks(root: string): Promise<LocalBook[]> {
  const books: LocalBook[] = [];
  // Symlinked folders are followed once: a link back up the tree must not loop forever.
  const visited = new Set<string>();
  async function visit(folder: string): Promise<void> {
    const real = await realpath(folder);
    if (visited.has(real)) return;
    visited.add(real);
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    for (const entry of entries) {
      if (IGNORED(entry.name)) continue;
      const absolutePath = path.join(folder, entry.name);
      const info = entry.isSymbolicLink() ? await stat(absolutePath).catch(() => null) : entry;
      if (info?.isDirectory()) await visit(absolutePath);
      else if (info?.isFile() && isBook(entry.name)) {
        const { size } = await stat(absolutePath);
        books.push({ absolutePath, relativePath: path.relative(root, absolutePath).split(path.sep).join('/'), size });
      }
    }
  }
  await visit(root);
  return books;
}

function isBook(name: string): boolean {
  return (BOOK_EXTENSIONS as readonly string[]).includes(path.extname(name).toLowerCase());
}
