/**
 * Input → reader action: keyboard shortcuts (with the help sheet's rows), tap zones and swipes. Arrow keys,
 * taps and swipes follow the reading direction: in right-to-left manga "left" means the next page.
 */
import type { MessageKey } from '../i18n';
import type { ReadingMode } from './layout';

export type ReaderAction =
  | 'next'
  | 'previous'
  | 'first'
  | 'last'
  | 'nextBook'
  | 'previousBook'
  | 'toggleMenu'
  | 'toggleHelp'
  | 'toggleLayout'
  | 'cycleFit'
  | 'cycleMode'
  | 'toggleSplit'
  | 'toggleFullscreen'
  | 'close';

interface Shortcut {
  keys: string[];
  action: ReaderAction;
  /** Message catalogue key of the help sheet's description. */
  help: MessageKey;
}

/** Direction-independent shortcuts; the arrows are resolved per reading mode in `actionForKey`. */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['ArrowRight', 'ArrowLeft'], action: 'next', help: 'reader.help.arrows' },
  { keys: [' ', 'PageDown'], action: 'next', help: 'reader.help.next' },
  { keys: ['PageUp'], action: 'previous', help: 'reader.help.previous' },
  { keys: ['Home'], action: 'first', help: 'reader.help.first' },
  { keys: ['End'], action: 'last', help: 'reader.help.last' },
  { keys: ['n'], action: 'nextBook', help: 'reader.help.nextBook' },
  { keys: ['p'], action: 'previousBook', help: 'reader.help.previousBook' },
  { keys: ['d'], action: 'toggleLayout', help: 'reader.help.layout' },
  { keys: ['f'], action: 'cycleFit', help: 'reader.help.fit' },
  { keys: ['m'], action: 'cycleMode', help: 'reader.help.mode' },
  { keys: ['s'], action: 'toggleSplit', help: 'reader.help.split' },
  { keys: ['F'], action: 'toggleFullscreen', help: 'reader.help.fullscreen' },
  { keys: ['Enter'], action: 'toggleMenu', help: 'reader.help.menu' },
  { keys: ['?', 'h'], action: 'toggleHelp', help: 'reader.help.help' },
  { keys: ['Escape'], action: 'close', help: 'reader.help.close' },
];

export interface KeyInput {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The action of a key press, or null (browser shortcuts with Ctrl/Meta/Alt are left alone). */
export function actionForKey(input: KeyInput, mode: ReadingMode): ReaderAction | null {
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  const key = input.key;
  if (key === 'ArrowRight') return mode === 'rtl' ? 'previous' : 'next';
  if (key === 'ArrowLeft') return mode === 'rtl' ? 'next' : 'previous';
  // Vertical modes turn with the up/down arrows; in webtoon the browser scrolls.
  if (key === 'ArrowDown') return mode === 'ttb' ? 'next' : null;
  if (key === 'ArrowUp') return mode === 'ttb' ? 'previous' : null;
  if (key === ' ' && input.shiftKey) return 'previous';
  if (key === ' ' && mode === 'webtoon') return null;
  return SHORTCUTS.find((s) => s.keys.includes(key))?.action ?? null;
}

/**
 * Tap zones: the outer thirds turn pages, the middle opens the menu. Vertical modes use the top and
 * bottom thirds. The side that means "next" follows the direction.
 */
export function actionForTap(x: number, y: number, width: number, height: number, mode: ReadingMode): ReaderAction {
  if (mode === 'ttb' || mode === 'webtoon') {
    if (y < height / 3) return 'previous';
    if (y > (height * 2) / 3) return 'next';
    return 'toggleMenu';
  }
  if (x < width / 3) return mode === 'rtl' ? 'next' : 'previous';
  if (x > (width * 2) / 3) return mode === 'rtl' ? 'previous' : 'next';
  return 'toggleMenu';
}

/** The least travel of a finger that counts as a swipe, in CSS pixels. */
export const SWIPE_MIN_DISTANCE = 50;

/** A horizontal swipe turns the page (towards the direction of reading); anything else is not a swipe. */
export function actionForSwipe(dx: number, dy: number, mode: ReadingMode): ReaderAction | null {
  if (mode === 'ttb') {
    if (Math.abs(dy) < SWIPE_MIN_DISTANCE || Math.abs(dy) < Math.abs(dx) * 1.5) return null;
    return dy < 0 ? 'next' : 'previous';
  }
  if (mode === 'webtoon') return null;
  if (Math.abs(dx) < SWIPE_MIN_DISTANCE || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  // Finger moving left drags the next page in from the right (LTR).
  const forward = dx < 0;
  return forward === (mode !== 'rtl') ? 'next' : 'previous';
}
