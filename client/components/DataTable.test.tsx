// @vitest-environment jsdom
import { Table, VisuallyHidden } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeMatchMedia } from '../test/media';
import { renderPage } from '../test/render';
import { DataTable } from './DataTable';
import { SMALL_SCREEN_QUERY } from './layout';

const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
afterEach(() => {
  if (original) Object.defineProperty(window, 'matchMedia', original);
});

function People({ names }: { names: string[] }) {
  const [shown, setShown] = useState(names);
  return (
    <>
      <button type="button" onClick={() => setShown([...shown, 'Zoe'])}>
        more
      </button>
      <DataTable label="People" data-testid="people">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th colSpan={2}>Contact</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((name) => (
            <Table.Tr key={name}>
              <Table.Td>{name}</Table.Td>
              <Table.Td>{`${name.toLowerCase()}@example.com`}</Table.Td>
              <Table.Td>+33 1 00 00 00 00</Table.Td>
              <Table.Td>
                <button type="button">Edit {name}</button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </DataTable>
    </>
  );
}

const labelsOf = (row: HTMLTableRowElement) => Array.from(row.cells).map((cell) => cell.getAttribute('data-label'));

describe('DataTable', () => {
  it('shows each row as a card on a phone: no sideways scrolling box, every cell named by its column', async () => {
    window.matchMedia = fakeMatchMedia((query) => query === SMALL_SCREEN_QUERY);
    renderPage(<People names={['Ann', 'Bob']} />);
    const table = screen.getByTestId('people') as HTMLTableElement;
    expect(table.classList.contains('data-table-cards')).toBe(true);
    const box = screen.getByRole('region', { name: 'People' });
    expect(box.getAttribute('data-layout')).toBe('cards');
    expect(box.hasAttribute('tabindex')).toBe(false);
    expect(labelsOf(table.tBodies[0].rows[0])).toEqual(['Name', 'Contact', 'Contact', 'Actions']);
    // rows added later are named too
    fireEvent.click(screen.getByRole('button', { name: 'more' }));
    await waitFor(() => expect(table.tBodies[0].rows).toHaveLength(3));
    await waitFor(() => expect(labelsOf(table.tBodies[0].rows[2])).toEqual(['Name', 'Contact', 'Contact', 'Actions']));
  });

  it('keeps the table in a focusable box that scrolls sideways on a wide screen', () => {
    window.matchMedia = fakeMatchMedia(() => false);
    renderPage(<People names={['Ann']} />);
    const table = screen.getByTestId('people');
    expect(table.classList.contains('data-table-cards')).toBe(false);
    const box = screen.getByRole('region', { name: 'People' });
    expect(box.getAttribute('data-layout')).toBe('table');
    expect(box.getAttribute('tabindex')).toBe('0');
  });
});
