import {
  ANSWER_MAX_WORDS,
  PRIZE_PAYOUT_TEXT,
  WITHDRAWAL_PROCESSING_TEXT,
} from '@shared/constants.ts';
import { Link } from 'wouter';
import { POLICIES_UPDATED, SUPPORT_EMAIL } from '../components/contact.ts';
import { Callout, Section, StaticPage, type TocEntry } from '../components/StaticPage.tsx';

const SECTIONS = {
  agreement: { id: 'agreement', title: 'About these terms' },
  eligibility: { id: 'eligibility', title: 'Who can play' },
  account: { id: 'account', title: 'Your account' },
  wallet: { id: 'wallet', title: 'Your wallet and top-ups' },
  fees: { id: 'entry-fees', title: 'Entry fees' },
  rewards: { id: 'rewards', title: 'Games and rewards' },
  withdrawals: { id: 'withdrawals', title: 'Withdrawals' },
  vip: { id: 'vip', title: 'The VIP plan' },
  fairPlay: { id: 'fair-play', title: 'Fair play' },
  suspension: { id: 'suspension', title: 'Suspension and closing your account' },
  liability: { id: 'liability', title: 'Our responsibility to you' },
  changes: { id: 'changes', title: 'Changes, law and disputes' },
  contact: { id: 'contact', title: 'Contact us' },
} satisfies Record<string, TocEntry>;

export function TermsPage() {
  return (
    <StaticPage
      eyebrow="Terms of use"
      title="The rules of the house"
      intro={
        <p>
          Pluckers is a contest app where real money moves: your wallet, entry fees and rewards are
          all in naira. These terms explain what you can expect from us and what we expect from you.
          Please read them before you top up or play.
        </p>
      }
      updated={POLICIES_UPDATED}
      toc={Object.values(SECTIONS)}
    >
      <Section {...SECTIONS.agreement}>
        <p>
          These terms are an agreement between you and Pluckers (“we”, “us”). By creating an
          account, topping up or playing, you accept them together with our{' '}
          <Link href="/GameRules">Game rules</Link> and our{' '}
          <Link href="/Privacy">Privacy notice</Link>. If you do not agree, please do not use
          Pluckers.
        </p>
      </Section>

      <Section {...SECTIONS.eligibility}>
        <Callout tone="wallet">
          <p>
            <strong>You must be 18 or over to use Pluckers.</strong> We ask you to confirm your age
            when you sign up.
          </p>
        </Callout>
        <ul>
          <li>You must be able to enter a binding agreement under Nigerian law.</li>
          <li>One account per person. Accounts cannot be shared, sold or transferred.</li>
          <li>
            The details you give us (name, e-mail, phone number, bank account) must be true and your
            own.
          </li>
          <li>
            Before we pay out a reward or a withdrawal we may ask you to prove your age or identity.
            If you cannot, we may hold the payment.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.account}>
        <ul>
          <li>
            Keep your password to yourself. You are responsible for everything done with your
            account until you tell us it has been misused.
          </li>
          <li>You need to verify your e-mail address before you can log in.</li>
          <li>
            Players without a VIP plan appear as <strong>plucker_yourname</strong>; the prefix is
            removed while you hold a plan with the Verified badge.
          </li>
          <li>
            You can change your e-mail, phone number, username and password on your{' '}
            <Link href="/Profile">Profile</Link> page.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.wallet}>
        <p>
          Your Pluckers wallet holds a naira balance that you use for entry fees and the VIP plan,
          and into which your rewards and refunds are paid.
        </p>
        <ul>
          <li>
            You top up with a card or bank payment through our payment partners. We never see or
            store your full card details.
          </li>
          <li>
            A top-up counts once the payment partner confirms it. The minimum top-up is shown on the{' '}
            <Link href="/TopUp">Top up</Link> page.
          </li>
          <li>
            Your wallet is not a bank account: it earns no interest and is only for playing on
            Pluckers.
          </li>
          <li>
            If money lands in your wallet by mistake (for example a payment error on our side), we
            may correct your balance and will tell you when we do.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.fees}>
        <ul>
          <li>
            Some games are free. Others have an entry fee (your “seed”), shown on the game before
            you play.
          </li>
          <li>
            <strong>
              The entry fee is taken from your wallet the moment you submit your answer
            </strong>
            , in the same step that reserves your place.
          </li>
          <li>
            To play a paid game your balance must cover the entry fee and be at least the minimum
            balance shown on your wallet.
          </li>
          <li>
            Entry fees are not refundable once you have played, except when a game is cancelled: if
            fewer than 5 players join, the game is cancelled and{' '}
            <strong>every entry fee is refunded in full</strong> to the players’ wallets.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.rewards}>
        <p>
          Each game asks a simple question. You answer in up to {ANSWER_MAX_WORDS} words, once, and
          you cannot edit your answer. There is no right or wrong answer: winners are picked at
          random by software, one in every five players, with no human involvement. The full details
          are in the <Link href="/GameRules">Game rules</Link>.
        </p>
        <ul>
          <li>The reward for each winner is shown on the game before you play.</li>
          <li>
            Rewards are paid into your Pluckers wallet. {PRIZE_PAYOUT_TEXT} From there you can play
            again or withdraw.
          </li>
          <li>
            We may void an entry, and any reward it won, if it broke these terms (see{' '}
            <a href={`#${SECTIONS.fairPlay.id}`}>Fair play</a>).
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.withdrawals}>
        <ul>
          <li>
            You can withdraw your balance to a Nigerian bank account in your own name. Save it once
            on the Withdraw page; we confirm the account name with the bank before paying.
          </li>
          <li>
            The minimum withdrawal and the transaction fee are shown on the{' '}
            <Link href="/WithdrawFunds">Withdraw</Link> page before you confirm. The amount and the
            fee leave your balance together.
          </li>
          <li>
            <strong>{WITHDRAWAL_PROCESSING_TEXT}</strong> Checks on unusual activity can take
            longer; we will tell you if that happens.
          </li>
          <li>
            If a withdrawal is rejected or fails, the amount and the fee return to your wallet.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.vip}>
        <ul>
          <li>
            VIP is a weekly plan paid from your wallet. Its price is shown on the{' '}
            <Link href="/Pricing">Pricing</Link> page as the daily amount times seven.
          </li>
          <li>
            It gives unlimited daily games, access to tournaments, the Verified badge and the other
            benefits listed on the Pricing page.
          </li>
          <li>
            The plan renews from your wallet at the end of each period while your balance covers it.
            If it does not, the plan ends and we let you know.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.fairPlay}>
        <p>Pluckers only works if every player gets the same fair shot. You agree not to:</p>
        <ul>
          <li>open or use more than one account, or play for someone else;</li>
          <li>use bots, scripts or any automated way of playing;</li>
          <li>team up with other players to influence a game;</li>
          <li>
            submit answers that are abusive, hateful, sexual, or that share someone else’s personal
            details;
          </li>
          <li>
            exploit a bug or a mistake in a game, a price or a balance instead of reporting it;
          </li>
          <li>
            use stolen cards or accounts, or dispute a genuine payment to get your money twice.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.suspension}>
        <ul>
          <li>
            If we reasonably believe you have broken these terms or the law, we may suspend your
            account while we look into it, void affected entries and hold related rewards or
            withdrawals.
          </li>
          <li>
            We tell you why, unless the law stops us. You can reply through the{' '}
            <Link href="/SupportCenter">Support Center</Link> and we will review your case.
          </li>
          <li>
            Money that is rightfully yours stays yours: after a closure we pay out your remaining
            balance, less anything gained by breaking these terms.
          </li>
          <li>
            You can delete your account from your Profile page when your wallet balance is zero.
            Your personal data is then anonymised; financial records are kept as the law requires
            (see the <Link href="/Privacy">Privacy notice</Link>).
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.liability}>
        <ul>
          <li>
            We work hard to keep Pluckers running and accurate, but we cannot promise it will always
            be available or free of errors. Planned maintenance is announced in the app where we
            can.
          </li>
          <li>
            If a fault on our side affects a game, we may cancel it and refund every entry fee
            rather than pick winners from a broken game.
          </li>
          <li>
            We are not responsible for losses caused by things outside our reasonable control, such
            as network outages, bank or payment-partner delays, or someone using your password
            because you shared it.
          </li>
          <li>
            Nothing in these terms limits your rights under the Federal Competition and Consumer
            Protection Act or any other law that cannot be limited by agreement.
          </li>
          <li>
            Play for fun and within your means. Pluckers is not a way to earn a living. If playing
            stops being fun, take a break, and tell us if you would like us to close your account.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.changes}>
        <ul>
          <li>
            We may update these terms. We will tell you in the app before important changes take
            effect; if you keep playing after that, the new terms apply.
          </li>
          <li>These terms are governed by the laws of the Federal Republic of Nigeria.</li>
          <li>
            If something goes wrong, please contact us first: most problems are solved quickly. If
            we cannot agree, the Nigerian courts will decide.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.contact}>
        <p>
          Questions about these terms, a payment or your account? Use the{' '}
          <Link href="/SupportCenter">Support Center</Link> or write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </Section>
    </StaticPage>
  );
}
