import { RULE_MESSAGES, SIGNUP_MESSAGES } from '@shared/messages.ts';
import type { SupportTicketBody } from '@shared/schemas/support.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { LiveForm } from '@web/components/ui/LiveForm.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { sendSupportTicket } from '../api/send-support-ticket.ts';

export const SUPPORT_CATEGORIES = [
  'Account and login',
  'Wallet and top-ups',
  'Withdrawals',
  'Games and draws',
  'VIP plan',
  'Report a player or an answer',
  'Something else',
] as const;

const EMPTY = { name: '', email: '', category: '', subject: '', message: '' };
const MESSAGE_MAX = 2000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Plain checks in the server schema's words, in the form's order: the shared zod schema would
 * add about 27 KB gzip to this public page. The server still checks with that schema.
 */
const supportValidator: Validator<SupportTicketBody> = {
  safeParse(input) {
    const values = input as typeof EMPTY;
    const body = {
      name: values.name.trim(),
      email: values.email.trim(),
      category: values.category,
      subject: values.subject.trim(),
      message: values.message.trim(),
    };
    const problems: [keyof typeof EMPTY, string | false][] = [
      ['name', !body.name && 'Enter your name'],
      [
        'email',
        !body.email
          ? SIGNUP_MESSAGES.email
          : !EMAIL_PATTERN.test(body.email) && RULE_MESSAGES.emailFormat,
      ],
      ['category', !body.category && 'Select a category'],
      ['subject', !body.subject && 'Enter a subject'],
      ['message', !body.message && 'Enter your message'],
    ];
    const issues = problems.flatMap(([name, message]) =>
      message ? [{ path: [name], message }] : [],
    );
    return issues.length > 0
      ? { success: false, error: { issues } }
      : { success: true, data: body };
  },
};

/**
 * docs/product.md#screens: the form shows a browser alert and clears itself. Beyond the spec,
 * the message is also stored for operators first, and the sender gets its reference by
 * e-mail: the alert and the clearing come once it is stored, so a failed send loses nothing.
 */
export function SupportForm() {
  // Every problem at once; editing a field clears its own.
  const form = useSchemaForm({ schema: supportValidator, initial: EMPTY, report: 'submit' });
  const { values } = form;
  const [sending, setSending] = useState(false);
  const [reference, setReference] = useState<string | null>(null);

  async function send(body: SupportTicketBody) {
    setSending(true);
    try {
      const ticket = await sendSupportTicket(body);
      setReference(ticket.reference);
      window.alert(
        `Thank you, ${body.name}! Your message has been received. ` +
          `Our support team will get back to you at ${body.email}.`,
      );
      form.reset(EMPTY);
      toast.success(ticket.message);
    } catch (error) {
      toast.error(errorMessage(error, 'Your message could not be sent, please try again'));
    } finally {
      setSending(false);
    }
  }

  const submit = form.handleSubmit((body) => void send(body));

  return (
    <LiveForm
      form={form}
      onSubmit={(event) => {
        if (sending) event.preventDefault();
        else submit(event);
      }}
      className="flex flex-col gap-5"
      aria-label="Contact support"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Full name"
          autoComplete="name"
          maxLength={100}
          required
          {...form.field('name')}
        />
        <Field
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={254}
          required
          {...form.field('email')}
        />
      </div>
      <Field
        as="select"
        label="Category"
        required
        controlClassName={`[&_option]:text-white ${values.category ? '' : 'text-white/60'}`}
        {...form.field('category')}
      >
        <option value="">Choose a category</option>
        {SUPPORT_CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {category}
          </option>
        ))}
      </Field>
      <Field label="Subject" maxLength={120} required {...form.field('subject')} />
      <Field
        as="textarea"
        controlClassName="min-h-40 resize-y leading-6"
        label="Message"
        rows={6}
        maxLength={MESSAGE_MAX}
        required
        placeholder="Tell us what happened. Include the game title or the date of a payment if it helps."
        hint={`${values.message.length} / ${MESSAGE_MAX} characters`}
        {...form.field('message')}
      />
      <Button type="submit" loading={sending} className="w-full sm:w-auto sm:self-start">
        Send message
      </Button>
      {reference ? (
        <p role="status" className="text-sm text-white/85">
          Your ticket reference is <strong className="font-mono">{reference}</strong>: we have
          e-mailed it to you. Quote it if you write again.
        </p>
      ) : null}
    </LiveForm>
  );
}
