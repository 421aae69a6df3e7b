import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DATA_SAVER_KEY } from '@web/lib/data-saver.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { DataSaverCard } from './DataSaverCard.tsx';

afterEach(() => localStorage.clear());

describe('DataSaverCard', () => {
  it('turns low-data mode on and off on this device', async () => {
    const person = userEvent.setup();
    render(<DataSaverCard />);
    const toggle = screen.getByRole('switch', { name: 'Data saver' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await person.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(localStorage.getItem(DATA_SAVER_KEY)).toBe('1');
    await person.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(localStorage.getItem(DATA_SAVER_KEY)).toBeNull();
  });
});
