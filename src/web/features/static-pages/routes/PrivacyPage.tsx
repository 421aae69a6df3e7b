import { Link } from 'wouter';
import { POLICIES_UPDATED, PRIVACY_EMAIL } from '../components/contact.ts';
import { Callout, Section, StaticPage, type TocEntry } from '../components/StaticPage.tsx';

const SECTIONS = {
  summary: { id: 'summary', title: 'The short version' },
  collect: { id: 'what-we-keep', title: 'What we keep' },
  why: { id: 'why', title: 'Why we keep it' },
  sharing: { id: 'sharing', title: 'Who sees it' },
  device: { id: 'on-your-device', title: 'What we store on your device' },
  retention: { id: 'retention', title: 'How long we keep it' },
  rights: { id: 'your-rights', title: 'Your rights' },
  security: { id: 'security', title: 'Keeping it safe' },
  age: { id: 'under-18', title: 'Under-18s' },
  changes: { id: 'changes', title: 'Changes and contact' },
} satisfies Record<string, TocEntry>;

/** What we keep, and why: the heart of the notice, as a list a player can scan. */
const DATA_WE_KEEP = [
  {
    what: 'Your name, username, e-mail address and phone number',
    why: 'To create and run your account, let you log in, send you codes and important messages, and show your username on the leaderboard.',
  },
  {
    what: 'Your password',
    why: 'To let you log in. We only keep a one-way hash of it, never the password itself.',
  },
  {
    what: 'That you confirmed you are 18 or over, and when',
    why: 'Because Pluckers is for adults only.',
  },
  {
    what: 'Your bank account (bank, account number and account name)',
    why: 'Only to pay your withdrawals to you, and to check the account is really yours.',
  },
  {
    what: 'Your wallet: top-ups, entry fees, rewards, refunds, plan payments and withdrawals',
    why: 'To keep your balance right, show you your history, and meet our legal duties for money records.',
  },
  {
    what: 'Your games: answers, entries, wins, points and level',
    why: 'To run the games and the draws, award points and levels, and build the leaderboard.',
  },
  {
    what: 'Your profile photo, if you add one',
    why: 'To show it beside your username. We shrink it and strip hidden details such as location before storing it.',
  },
  {
    what: 'Technical records: IP address, browser and the requests you make',
    why: 'To keep Pluckers secure, stop fraud and abuse, and fix problems.',
  },
];

export function PrivacyPage() {
  return (
    <StaticPage
      eyebrow="Privacy notice"
      title="Your data, kept to what we need"
      intro={
        <p>
          This notice explains what personal data Pluckers keeps, why, who else sees it, and the
          rights you have under the Nigeria Data Protection Act 2023 and the Nigeria Data Protection
          Regulation.
        </p>
      }
      updated={POLICIES_UPDATED}
      toc={Object.values(SECTIONS)}
    >
      <Section {...SECTIONS.summary}>
        <ul>
          <li>We keep what we need to run your account, your wallet and the games. No more.</li>
          <li>We never sell your data, and we do not use advertising trackers.</li>
          <li>
            Deleting your account anonymises your personal data; we keep financial records because
            the law requires it.
          </li>
          <li>
            You can see, correct, download or delete your data. Just ask, or use your{' '}
            <Link href="/Profile">Profile</Link> page.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.collect}>
        <p>
          Most of this you give us yourself when you sign up, top up, play or save a bank account.
        </p>
        <dl className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-card">
          {DATA_WE_KEEP.map((item) => (
            <div key={item.what} className="px-4 py-4">
              <dt className="font-semibold text-white">{item.what}</dt>
              <dd className="mt-1 text-sm leading-6 text-muted">{item.why}</dd>
            </div>
          ))}
        </dl>
        <p>
          Card details are entered on our payment partner’s page, not ours: we only receive the
          result of the payment and its reference.
        </p>
      </Section>

      <Section {...SECTIONS.why}>
        <p>The law lets us use your data only with a lawful basis. Ours are:</p>
        <ul>
          <li>
            <strong>Our contract with you</strong>: running your account, wallet, games, draws,
            rewards and withdrawals.
          </li>
          <li>
            <strong>Legal obligations</strong>: keeping financial records, checking age and identity
            where needed, and answering lawful requests from authorities.
          </li>
          <li>
            <strong>Legitimate interests</strong>: keeping Pluckers secure, preventing fraud and
            cheating, and improving the service, always balanced against your rights.
          </li>
          <li>
            <strong>Your consent</strong>: for anything optional, such as a profile photo or signing
            in with Google. You can withdraw consent at any time.
          </li>
        </ul>
        <p>
          Winners are picked at random by software. The draw does not profile you or use your
          personal data; it only needs your entry.
        </p>
      </Section>

      <Section {...SECTIONS.sharing}>
        <ul>
          <li>
            <strong>Other players</strong> see your username, level, points and total winnings on
            the leaderboard, and your username in a game’s published draw results. They never see
            your name, e-mail, phone or bank details.
          </li>
          <li>
            <strong>Payment partners</strong> (such as Paystack, TransactPay and Flutterwave)
            process your top-ups and withdrawals.
          </li>
          <li>
            <strong>Our e-mail provider</strong> delivers verification codes and account messages.
          </li>
          <li>
            <strong>Google</strong>, if you choose to sign in with Google: we receive your name and
            verified e-mail address from it.
          </li>
          <li>
            <strong>Authorities</strong>, such as regulators, tax authorities or the police, when
            the law requires us to.
          </li>
        </ul>
        <p>
          Some partners may process data outside Nigeria. When that happens we make sure the
          transfer is allowed by the Nigeria Data Protection Act and the data stays protected.
        </p>
      </Section>

      <Section {...SECTIONS.device}>
        <p>
          We use no advertising or tracking cookies. Your browser keeps your login token (so you
          stay signed in) and, for the current tab, a copy of your profile so pages load quickly.
          Logging out removes them.
        </p>
      </Section>

      <Section {...SECTIONS.retention}>
        <ul>
          <li>We keep your account data for as long as your account is open.</li>
          <li>
            <strong>When you delete your account</strong>, we anonymise your personal data: your
            name, e-mail, phone number, photo and bank details are removed or replaced, and you can
            no longer be identified from what remains.
          </li>
          <li>
            <strong>Financial records are kept</strong>: the record of every top-up, entry fee,
            reward, refund and withdrawal stays, without your personal details, for as long as
            Nigerian tax and anti-money-laundering laws require.
          </li>
          <li>Technical logs are kept for a short time for security, then deleted.</li>
        </ul>
      </Section>

      <Section {...SECTIONS.rights}>
        <p>Under the Nigeria Data Protection Act 2023 you have the right to:</p>
        <ul>
          <li>be told how your data is used (this notice);</li>
          <li>get a copy of the data we hold about you;</li>
          <li>have wrong or incomplete data corrected;</li>
          <li>have your data erased, subject to the records we must keep;</li>
          <li>restrict or object to how we use your data;</li>
          <li>receive your data in a commonly used format, or have it sent to another service;</li>
          <li>withdraw consent you gave us, at any time.</li>
        </ul>
        <p>
          You can change your e-mail, phone number and username, or delete your account, on your{' '}
          <Link href="/Profile">Profile</Link> page. For anything else, write to{' '}
          <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a> or use the{' '}
          <Link href="/SupportCenter">Support Center</Link>. We reply within 30 days.
        </p>
        <Callout>
          <p>
            If you are not happy with our answer, you can complain to the{' '}
            <strong>Nigeria Data Protection Commission (NDPC)</strong>.
          </p>
        </Callout>
      </Section>

      <Section {...SECTIONS.security}>
        <ul>
          <li>Everything travels encrypted between your device and Pluckers.</li>
          <li>Passwords are stored as strong one-way hashes; codes expire after 10 minutes.</li>
          <li>Only the people who need your data to do their job can reach it.</li>
          <li>
            If a breach ever puts your data at risk, we will tell the NDPC within 72 hours and tell
            you without delay.
          </li>
        </ul>
      </Section>

      <Section {...SECTIONS.age}>
        <p>
          Pluckers is only for people aged 18 or over. We do not knowingly keep data about anyone
          younger; if we learn that we have, we close the account and delete the data.
        </p>
      </Section>

      <Section {...SECTIONS.changes}>
        <p>
          If we change this notice in a way that matters, we will tell you in the app first. Our
          data protection contact is <a href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</a>.
        </p>
      </Section>
    </StaticPage>
  );
}
