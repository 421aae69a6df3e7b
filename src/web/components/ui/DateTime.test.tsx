import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DateTime } from './DateTime.tsx';

describe('DateTime', () => {
  it('keeps the time and its am/pm together, and names the instant for machines', () => {
    render(<DateTime value="2026-11-28T01:17:00.000Z" />);
    const time = screen.getByText('28 Nov 2026, 2:17 am');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe('2026-11-28T01:17:00.000Z');
    expect(time.textContent).toBe('28 Nov 2026, 2:17\u00A0am');
  });

  it('shows nothing for a date it cannot read', () => {
    const { container } = render(<DateTime value="not a date" />);
    expect(container.textContent).toBe('');
  });
});
