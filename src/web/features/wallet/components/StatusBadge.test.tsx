import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusBadge } from './StatusBadge.tsx';

describe('StatusBadge (docs/product.md#states)', () => {
  it.each([
    ['successful', 'Successful', 'check', 'text-vip'],
    ['SUCCESS', 'Success', 'check', 'text-vip'],
    ['failed', 'Failed', 'info', 'text-danger'],
    ['Cancelled', 'Cancelled', 'info', 'text-danger'],
    ['pending', 'Pending', 'info', 'text-wallet'],
    ['processing', 'Processing', 'info', 'text-wallet'],
  ])('%j shows "%s" with the %s icon in %s', (status, label, icon, colour) => {
    render(<StatusBadge status={status} />);
    const badge = screen.getByText(label);
    expect(badge.className).toContain(colour);
    const svg = badge.querySelector('svg');
    expect(svg?.getAttribute('data-icon')).toBe(icon);
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
  });
});
