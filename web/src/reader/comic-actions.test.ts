/**
 * What the comic reader's actions do (comic-actions.ts), played as a reader presses keys: a small reader
 * whose state the commands change, so each step sees the state the previous one left.
 */
import { describe, expect, it } from 'vitest';
import type { Book } from '../api/types';
import { type ComicReaderState, runComicAction } from './comic-actions';
import type { ReaderAction } from './controls';
import { DEFAULT_SETTINGS } from './settings';

const book = (id: string) => ({ id, title: id }) as Book;

function reader(start: Partial<ComicReaderState> = {}) {
  const state: ComicReaderState = {
    index: 0,
    viewCount: 3,
    edge: null,
    menu: false,
    help: false,
    settings: { ...DEFAULT_SETTINGS },
    mode: 'ltr',
    nextBook: undefined,
    previousBook: undefined,
    ...start,
  };
  const opened: string[] = [];
  let closed = false;
  let fullscreen = 0;
  const press = (...actions: ReaderAction[]) => {
    for (const action of actions) {
      runComicAction(action, state, {
        goToIndex: (index) => {
          state.index = Math.max(0, Math.min(state.viewCount - 1, index));
          state.edge = null;
        },
        openBook: (target) => target && opened.push(target.id),
        showEdge: (edge) => {
          state.edge = edge;
        },
        setMenu: (open) => {
          state.menu = open;
        },
        setHelp: (open) => {
          state.help = open;
        },
        updateSettings: (next) => {
          state.settings = { ...state.settings, ...next };
        },
        setMode: (mode) => {
          state.mode = mode ?? 'ltr';
        },
        toggleFullscreen: () => {
          fullscreen++;
        },
        close: () => {
          closed = true;
        },
      });
    }
  };
  return { state, press, opened, closed: () => closed, fullscreen: () => fullscreen };
}

describe('comic reader actions', () => {
  it('turns through the views, then shows the end notice, and only a second turn opens the next book', () => {
    const r = reader({ nextBook: book('two') });
    r.press('next', 'next');
    expect(r.state.index).toBe(2);
    expect(r.state.edge).toBeNull();
    r.press('next');
    expect(r.state.edge).toBe('end');
    expect(r.opened).toEqual([]);
    r.press('next');
    expect(r.opened).toEqual(['two']);
  });

  it('at the end of the last book keeps showing the notice and opens nothing', () => {
    const r = reader({ index: 2 });
    r.press('next', 'next');
    expect(r.state.edge).toBe('end');
    expect(r.opened).toEqual([]);
  });

  it('backwards from the first view: the start notice, then the previous book', () => {
    const r = reader({ previousBook: book('zero') });
    r.press('previous');
    expect(r.state.edge).toBe('start');
    r.press('previous');
    expect(r.opened).toEqual(['zero']);
  });

  it('a turn away from the end hides the notice, so the next book needs two turns again', () => {
    const r = reader({ index: 2, nextBook: book('two') });
    r.press('next', 'previous', 'next');
    expect(r.state.index).toBe(2);
    expect(r.state.edge).toBeNull();
    expect(r.opened).toEqual([]);
  });

  it('jumps to the first and last view and opens the neighbouring books directly', () => {
    const r = reader({ index: 1, nextBook: book('two'), previousBook: book('zero') });
    r.press('last');
    expect(r.state.index).toBe(2);
    r.press('first');
    expect(r.state.index).toBe(0);
    r.press('nextBook', 'previousBook');
    expect(r.opened).toEqual(['two', 'zero']);
  });

  it('Escape closes the help, then the menu, then the reader', () => {
    const r = reader();
    r.press('toggleMenu', 'toggleHelp');
    expect(r.state).toMatchObject({ menu: true, help: true });
    r.press('close');
    expect(r.state).toMatchObject({ menu: true, help: false });
    expect(r.closed()).toBe(false);
    r.press('close');
    expect(r.state.menu).toBe(false);
    expect(r.closed()).toBe(false);
    r.press('close');
    expect(r.closed()).toBe(true);
  });

  it('changes the layout, fit, split and mode in turn', () => {
    const r = reader();
    r.press('toggleLayout', 'cycleFit', 'toggleSplit', 'cycleMode');
    expect(r.state.settings).toMatchObject({ layout: 'double', fit: 'width', splitWide: true });
    expect(r.state.mode).toBe('rtl');
    r.press('toggleLayout', 'cycleFit', 'cycleFit', 'cycleFit', 'toggleSplit');
    expect(r.state.settings).toMatchObject({ layout: 'single', fit: 'screen', splitWide: false });
    r.press('toggleFullscreen');
    expect(r.fullscreen()).toBe(1);
  });
});
