/**
 * What each action does in the comic reader. Keys, taps and swipes all end here (controls.ts maps the
 * input to the action), so the rules are in one place: a turn past the last view first shows the end
 * notice and only a second one opens the next book (and the same backwards); Escape closes the help,
 * then the menu, then the reader. It reads the reader's state and calls its commands, nothing else.
 */
import type { Book } from '../api/types';
import type { ReaderAction } from './controls';
import type { ReadingMode } from './layout';
import { type ComicSettings, FIT_MODES, nextIn, READING_MODES } from './settings';

/** The end or the start of the book reached by a page turn: the notice offering the next or previous book. */
export type BookEdge = 'end' | 'start';

export interface ComicReaderState {
  /** The view on screen, counted from the latest turn (key presses can come faster than renders). */
  index: number;
  viewCount: number;
  edge: BookEdge | null;
  menu: boolean;
  help: boolean;
  settings: ComicSettings;
  mode: ReadingMode;
  nextBook: Book | undefined;
  previousBook: Book | undefined;
}

export interface ComicReaderCommands {
  goToIndex(index: number): void;
  openBook(book: Book | undefined): void;
  showEdge(edge: BookEdge): void;
  setMenu(open: boolean): void;
  setHelp(open: boolean): void;
  updateSettings(next: Partial<ComicSettings>): void;
  /** A reading mode for the series, or null for the series' default. */
  setMode(mode: ReadingMode | null): void;
  toggleFullscreen(): void;
  /** Leaves the reader for the book's page. */
  close(): void;
}

export function runComicAction(action: ReaderAction, state: ComicReaderState, commands: ComicReaderCommands): void {
  const { index, viewCount, edge, settings } = state;
  switch (action) {
    case 'next':
      if (index < viewCount - 1) commands.goToIndex(index + 1);
      else if (edge === 'end' && state.nextBook) commands.openBook(state.nextBook);
      else commands.showEdge('end');
      break;
    case 'previous':
      if (index > 0) commands.goToIndex(index - 1);
      else if (edge === 'start' && state.previousBook) commands.openBook(state.previousBook);
      else commands.showEdge('start');
      break;
    case 'first':
      commands.goToIndex(0);
      break;
    case 'last':
      commands.goToIndex(viewCount - 1);
      break;
    case 'nextBook':
      commands.openBook(state.nextBook);
      break;
    case 'previousBook':
      commands.openBook(state.previousBook);
      break;
    case 'toggleMenu':
      commands.setMenu(!state.menu);
      break;
    case 'toggleHelp':
      commands.setHelp(!state.help);
      break;
    case 'toggleLayout':
      commands.updateSettings({ layout: settings.layout === 'single' ? 'double' : 'single' });
      break;
    case 'cycleFit':
      commands.updateSettings({ fit: nextIn(FIT_MODES, settings.fit) });
      break;
    case 'cycleMode':
      commands.setMode(nextIn(READING_MODES, state.mode));
      break;
    case 'toggleSplit':
      commands.updateSettings({ splitWide: !settings.splitWide });
      break;
    case 'toggleFullscreen':
      commands.toggleFullscreen();
      break;
    case 'close':
      if (state.help) commands.setHelp(false);
      else if (state.menu) commands.setMenu(false);
      else commands.close();
      break;
  }
}

/** The browser's fullscreen, on or off (refused without a user gesture: then nothing happens). */
export function toggleFullscreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}
