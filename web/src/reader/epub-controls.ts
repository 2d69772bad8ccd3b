/**
 * Input → action in the EPUB reader: its keys (the help sheet lists these, not the comic reader's, most of
 * which do nothing in a book of text: issue 31 point 4) and its touch zones. The zones are the app's own
 * elements over the book's frame, never listeners inside it (DECISIONS.md §Security, WebKit bug 218086).
 */
import type { MessageKey } from '../i18n';
import { type KeyInput, SWIPE_MIN_DISTANCE } from './controls';

export type EpubAction = 'left' | 'right' | 'next' | 'previous' | 'toggleMenu' | 'contents' | 'toggleHelp' | 'close';

export const EPUB_SHORTCUTS: readonly { keys: string[]; action: EpubAction; help: MessageKey }[] = [
  { keys: ['ArrowRight'], action: 'right', help: 'reader.help.pageRight' },
  { keys: ['ArrowLeft'], action: 'left', help: 'reader.help.pageLeft' },
  { keys: [' ', 'PageDown'], action: 'next', help: 'reader.help.next' },
  { keys: ['PageUp'], action: 'previous', help: 'reader.help.previous' },
  { keys: ['Enter'], action: 'toggleMenu', help: 'reader.help.menu' },
  { keys: ['t'], action: 'contents', help: 'reader.help.contents' },
  { keys: ['?', 'h'], action: 'toggleHelp', help: 'reader.help.help' },
  { keys: ['Escape'], action: 'close', help: 'reader.help.closePanel' },
];

/** The action of a key press, or null (browser shortcuts with Ctrl/Meta/Alt are left alone). */
export function epubActionForKey(input: KeyInput): EpubAction | null {
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  if (input.key === ' ' && input.shiftKey) return 'previous';
  return EPUB_SHORTCUTS.find((shortcut) => shortcut.keys.includes(input.key))?.action ?? null;
}

/**
 * A swipe over the zones turns the page the finger drags in: moving left brings in the page to the right
 * (foliate-js's `goRight`, whatever the book's direction). Anything shorter or more vertical is not a swipe.
 */
export function epubSwipe(dx: number, dy: number): 'left' | 'right' | null {
  if (Math.abs(dx) < SWIPE_MIN_DISTANCE || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  return dx < 0 ? 'right' : 'left';
}
