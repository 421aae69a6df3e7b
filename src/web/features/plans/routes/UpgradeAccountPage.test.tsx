import type { Plan } from '@shared/schemas/plans.ts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchSettings, fetchUser, getSession, setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Router } from 'wouter';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { signIn, topUpThroughSandbox, withClient } from '../../../test/player.tsx';
import { PricingPage } from './PricingPage.tsx';
import { UpgradeAccountPage } from './UpgradeAccountPage.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

/** The VIP plan the server seeds: ₦200 a day, ₦1,400 a week. */
async function vipPlan(): Promise<Plan> {
  const { data } = (await (await fetch('/api/v1/plan')).json()) as { data: Plan[] };
  const plan = data.find((candidate) => candidate.planName === 'VIP');
  if (!plan) throw new Error('the VIP plan is not seeded');
  return plan;
}

function openUpgrade(planId: string) {
  setPageUrl(`${server().origin}/UpgradeAccount/${planId}`);
  render(
    withClient(
      <Router>
        <Route path="/UpgradeAccount/:id">
          <UpgradeAccountPage />
        </Route>
      </Router>,
    ),
  );
  return userEvent.setup();
}

describe('PricingPage', () => {
  it('shows each plan with its weekly and daily price, its features and a link to upgrade', async () => {
    setPageUrl(`${server().origin}/Pricing`);
    await signIn(server());
    const plan = await vipPlan();
    render(withClient(<PricingPage />));

    const card = (await screen.findByRole('heading', { level: 2, name: 'VIP Verified' })).closest(
      'article',
    );
    if (!card) throw new Error('no plan card');
    expect(within(card).getByText('₦1,400')).toBeTruthy();
    expect(
      within(card).getByText('That is ₦200 a day, paid weekly from your wallet.'),
    ).toBeTruthy();
    expect(
      within(card)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual(expect.arrayContaining(['✓Unlimited daily games', '✓Tournament access']));
    const upgrade = within(card).getByRole('link', { name: 'Upgrade to VIP' });
    expect(upgrade.getAttribute('href')).toBe(`/UpgradeAccount/${plan.id}`);
  });
});

describe('UpgradeAccountPage', () => {
  it('pays the first week from the wallet, and the player is verified on the success page', async () => {
    setPageUrl(`${server().origin}/UpgradeAccount`);
    const { token } = await signIn(server());
    await topUpThroughSandbox(token, 2000);
    setUser(await fetchUser());
    const plan = await vipPlan();
    const person = openUpgrade(plan.id);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirm your plan' }),
    ).toBeTruthy();
    const terms = screen.getByText('Wallet balance').closest('dl');
    expect(terms?.textContent).toBe('Wallet balance₦2,000First week−₦1,400Balance after₦600');
    await person.click(screen.getByRole('button', { name: 'Pay ₦1,400 and upgrade' }));

    await waitFor(() => expect(window.location.pathname).toBe('/UpgradeSuccessful'));
    expect(getSession().user).toMatchObject({ planID: plan.id, accountBalance: 600 });
    const me = (await (
      await fetch('/api/v1/user', { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: { planID: string; accountBalance: number; isVerified: boolean } };
    expect(me.data).toMatchObject({ planID: plan.id, accountBalance: 600, isVerified: true });
  });

  it('with too little in the wallet, says how much is missing and offers a top-up instead of Pay', async () => {
    setPageUrl(`${server().origin}/UpgradeAccount`);
    await signIn(server());
    const plan = await vipPlan();
    openUpgrade(plan.id);

    // What is missing, not a balance below zero in red.
    const terms = (await screen.findByText('Wallet balance')).closest('dl');
    expect(terms?.textContent).toBe('Wallet balance₦0First week−₦1,400You need₦1,400 more');
    expect(screen.queryByText('Balance after')).toBeNull();
    expect(screen.getByRole('link', { name: 'Top up ₦1,400' }).getAttribute('href')).toBe(
      '/TopUp?amount=1400',
    );
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
  });

  it('pre-fills Top up with the minimum payment when less than that is missing', async () => {
    setPageUrl(`${server().origin}/UpgradeAccount`);
    const { token } = await signIn(server());
    await topUpThroughSandbox(token, 1350);
    setUser(await fetchUser());
    // The server's seeded minimum payment: ₦100.
    setSettings(await fetchSettings());
    const plan = await vipPlan();
    openUpgrade(plan.id);

    const terms = (await screen.findByText('Wallet balance')).closest('dl');
    expect(terms?.textContent).toBe('Wallet balance₦1,350First week−₦1,400You need₦50 more');
    expect(screen.getByRole('link', { name: 'Top up ₦100' }).getAttribute('href')).toBe(
      '/TopUp?amount=100',
    );
  });

  it('shows the server’s refusal when the wallet was emptied elsewhere, and stays on the page', async () => {
    setPageUrl(`${server().origin}/UpgradeAccount`);
    const { user } = await signIn(server());
    // This tab still believes in a balance spent meanwhile on another device.
    setUser({ ...user, accountBalance: 5000 });
    const plan = await vipPlan();
    const person = openUpgrade(plan.id);

    await person.click(await screen.findByRole('button', { name: 'Pay ₦1,400 and upgrade' }));

    expect(
      await screen.findByText(
        'You need ₦1,400 in your wallet for the VIP plan. Top up to continue.',
      ),
    ).toBeTruthy();
    expect(window.location.pathname).toBe(`/UpgradeAccount/${plan.id}`);
    expect(getSession().user?.planID).toBeNull();
  });

  it('says so for a plan that does not exist, with a way back to the plans', async () => {
    setPageUrl(`${server().origin}/UpgradeAccount`);
    await signIn(server());
    openUpgrade('00000000-0000-4000-8000-000000000000');

    expect(await screen.findByText('Oops, something went wrong')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See our plans' }).getAttribute('href')).toBe(
      '/Pricing',
    );
  });
});
