/**
 * The series grid must stay smooth at 10,000 series (issue 12): only the rows near the viewport exist in
 * the DOM, and pages of items are fetched only when their rows come near.
 */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualGrid } from './virtual-grid';

const TOTAL = 10_000;
const PAGE_SIZE = 100;

function mount(requested: number[]) {
  const host = document.createElement('div');
  document.body.append(host);
  const loadPage = async (page: number) => {
    requested.push(page);
    return Array.from({ length: PAGE_SIZE }, (_, index) => `series ${page * PAGE_SIZE + index}`);
  };
  act(() => {
    render(
      <VirtualGrid<string>
        label="All series"
        total={TOTAL}
        pageSize={PAGE_SIZE}
        listKey="all"
        loadPage={loadPage}
        render={(title) => <span class="title">{title}</span>}
        placeholder={<span class="placeholder" />}
      />,
      host,
    );
  });
  return host;
}

async function settle() {
  for (let i = 0; i < 5; i++) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
  }
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the virtual series grid', () => {
  it('renders a few rows of 10,000 series and asks only for the first page', async () => {
    const requested: number[] = [];
    const host = mount(requested);
    await settle();
    const cells = host.querySelectorAll('li');
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.length).toBeLessThan(200);
    expect(requested).toEqual([0]);
    expect(host.querySelector('.title')?.textContent).toBe('series 0');
    // The box is as tall as all rows, so the scrollbar is right and nothing jumps as pages arrive.
    const height = Number.parseFloat((host.querySelector('ul') as HTMLElement).style.height);
    expect(height).toBeGreaterThan(100_000);
  });

  it('fetches the page of the rows scrolled to, and drops the rows left behind', async () => {
    const requested: number[] = [];
    const host = mount(requested);
    await settle();
    const list = host.querySelector('ul') as HTMLElement;
    const rowHeight = Number.parseFloat(list.style.height) / Math.ceil(TOTAL / 1); // one column without layout
    // Scroll so that item 5,000 sits at the top of the viewport.
    list.getBoundingClientRect = () => ({ top: -5000 * rowHeight }) as DOMRect;
    await act(async () => {
      dispatchEvent(new Event('scroll'));
      await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
    });
    await settle();
    expect(requested).toContain(50);
    expect(requested).not.toContain(30);
    const titles = [...host.querySelectorAll('.title')].map((title) => title.textContent);
    expect(titles).toContain('series 5000');
    expect(titles).not.toContain('series 0');
    expect(host.querySelectorAll('li').length).toBeLessThan(200);
  });
});
