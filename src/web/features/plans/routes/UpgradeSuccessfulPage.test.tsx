import type { Plan } from '@shared/schemas/plans.ts';
import { render, screen, waitFor } from '@testing-library/react';
import { fetchUser, setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { api, signIn, topUpThroughSandbox, withClient } from '../../../test/player.tsx';
import { UpgradeSuccessfulPage } from './UpgradeSuccessfulPage.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

function openUpgradeSuccessful() {
  setPageUrl(`${server().origin}/UpgradeSuccessful`);
  render(
    withClient(
      <Router>
        <Switch>
          <Route path="/UpgradeSuccessful">
            <UpgradeSuccessfulPage />
          </Route>
          <Route path="/Pricing">Our plans</Route>
        </Switch>
      </Router>,
    ),
  );
}

describe('UpgradeSuccessfulPage', () => {
  it('welcomes a player who has just subscribed to VIP', async () => {
    setPageUrl(`${server().origin}/`);
    const { token } = await signIn(server());
    await topUpThroughSandbox(token, 1400);
    const plans = await api<{ data: Plan[] }>(token, 'GET', '/plan');
    const vip = plans.data.find((plan) => plan.planName === 'VIP');
    if (!vip) throw new Error('the VIP plan is not seeded');
    await api<unknown>(token, 'POST', `/plan/subscribe/${vip.id}`);
    setUser(await fetchUser());
    openUpgradeSuccessful();

    expect(screen.getByText(/Welcome to VIP/)).toBeTruthy();
    expect(window.location.pathname).toBe('/UpgradeSuccessful');
  });

  it('sends a player without a plan to the plans instead of welcoming them to VIP', async () => {
    setPageUrl(`${server().origin}/`);
    await signIn(server());
    openUpgradeSuccessful();

    await waitFor(() => expect(window.location.pathname).toBe('/Pricing'));
    expect(screen.getByText('Our plans')).toBeTruthy();
    expect(screen.queryByText(/Welcome to VIP/)).toBeNull();
  });
});
