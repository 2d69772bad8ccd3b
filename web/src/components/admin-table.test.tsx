/**
 * The admin screens' loaded tables (api keys, users, tasks): "loading" while the list is on its way, then
 * one row per item under the column headings, or the error with a retry that loads the list again.
 */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { AsyncAdminTable } from './admin-table';
import { useAsync } from './async';

interface User {
  id: string;
  name: string;
}

function UsersTable({ load }: { load: () => Promise<{ data: User[] }> }) {
  const users = useAsync(() => load(), []);
  return (
    <AsyncAdminTable state={users} items={(page) => page.data} columns={['Name']}>
      {(user) => (
        <tr key={user.id} data-user={user.id}>
          <td>{user.name}</td>
          <td>
            <button type="button">Delete</button>
          </td>
        </tr>
      )}
    </AsyncAdminTable>
  );
}

function mount(load: () => Promise<{ data: User[] }>) {
  const host = document.createElement('div');
  document.body.append(host);
  act(() => render(<UsersTable load={load} />, host));
  return host;
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('admin table of a loaded list', () => {
  it('shows loading, then one row per item under the headings and an unlabelled actions column', async () => {
    let resolve: (page: { data: User[] }) => void = () => {};
    const host = mount(() => new Promise((done) => (resolve = done)));
    expect(host.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(host.querySelector('table')).toBeNull();

    resolve({
      data: [
        { id: 'a', name: 'Ada' },
        { id: 'b', name: 'Brian' },
      ],
    });
    await settle();
    const headings = [...host.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headings).toEqual(['Name', 'Actions']);
    expect(host.querySelector('thead th .visually-hidden')?.textContent).toBe('Actions');
    const rows = [...host.querySelectorAll('.table-wrap table.table tbody tr')];
    expect(rows.map((row) => row.getAttribute('data-user'))).toEqual(['a', 'b']);
    expect(rows[1]?.querySelector('td')?.textContent).toBe('Brian');
  });

  it('shows the error with a retry that loads the list again', async () => {
    let calls = 0;
    const host = mount(async () => {
      calls++;
      if (calls === 1) throw new Error('server unreachable');
      return { data: [{ id: 'a', name: 'Ada' }] };
    });
    await settle();
    expect(host.querySelector('[role="alert"]')?.textContent).toContain('server unreachable');
    expect(host.querySelector('table')).toBeNull();

    act(() => (host.querySelector('[role="alert"] button') as HTMLButtonElement).click());
    await settle();
    expect(calls).toBe(2);
    expect(host.querySelectorAll('tbody tr')).toHaveLength(1);
  });
});
