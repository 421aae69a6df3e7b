import { PAYMENT_MESSAGES } from '@shared/messages.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { loadPaymentModes } from '@web/lib/payment-modes.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../test/server.ts';
import { setPageUrl } from '../../test/browser.ts';
import { SandboxBanner } from './SandboxBanner.tsx';

/**
 * The banner follows the server's switch, read from GET /payment/methods (public). Each server
 * is leased by the block of the test that uses it, so the file holds one at a time.
 */
afterEach(cleanup);

describe('SandboxBanner', () => {
  describe('on a server running the payments sandbox', () => {
    const sandbox = testServerPerFile();

    it('says SANDBOX while the server runs the payments sandbox', async () => {
      setPageUrl(`${sandbox().origin}/login`);
      await loadPaymentModes();
      render(<SandboxBanner />);
      const region = screen.getByRole('region', { name: 'Sandbox mode' });
      expect(region.querySelector('[role="status"]')?.textContent).toBe(
        `SANDBOX${PAYMENT_MESSAGES.sandboxBanner}`,
      );
    });
  });

  describe('on a server without it', () => {
    const live = testServerPerFile({ PAYMENTS_SANDBOX: 'false' });

    it('is absent when the sandbox is off', async () => {
      setPageUrl(`${live().origin}/login`);
      await loadPaymentModes();
      render(<SandboxBanner />);
      expect(screen.queryByRole('region', { name: 'Sandbox mode' })).toBeNull();
    });
  });
});
