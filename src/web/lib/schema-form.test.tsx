import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Field } from '@web/components/ui/Field.tsx';
import { describe, expect, it } from 'vitest';
import { requireFilled, useSchemaForm } from './schema-form.ts';

const MESSAGES = { name: 'Enter your name', city: 'Enter your city' };

/** Two required fields, and a button that stands for a server refusing the name. */
function TwoFields({ report, onValid }: { report: 'first' | 'submit'; onValid: () => void }) {
  const form = useSchemaForm({
    schema: requireFilled(MESSAGES),
    initial: { name: '', city: '' },
    report,
  });
  return (
    <form ref={form.formRef} noValidate onSubmit={form.handleSubmit(onValid)}>
      <Field label="Name" {...form.field('name')} />
      <Field label="City" {...form.field('city')} />
      <button type="submit">Send</button>
      <button type="button" onClick={() => form.setError('name', 'That name is taken')}>
        Refuse
      </button>
    </form>
  );
}

describe('useSchemaForm', () => {
  it("report 'submit' shows every problem, and editing a field clears only its own", async () => {
    const person = userEvent.setup();
    render(<TwoFields report="submit" onValid={() => undefined} />);
    await person.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText(MESSAGES.name)).toBeTruthy();
    expect(screen.getByText(MESSAGES.city)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));

    await person.type(screen.getByLabelText('Name'), 'Ada');
    expect(screen.queryByText(MESSAGES.name)).toBeNull();
    expect(screen.getByText(MESSAGES.city)).toBeTruthy();
  });

  it("report 'first' shows the first problem only", async () => {
    const person = userEvent.setup();
    render(<TwoFields report="first" onValid={() => undefined} />);
    await person.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText(MESSAGES.name)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.city)).toBeNull();
  });

  it('a submit that passes the checks clears a server refusal', async () => {
    const person = userEvent.setup();
    let sent = 0;
    render(<TwoFields report="first" onValid={() => sent++} />);
    await person.type(screen.getByLabelText('Name'), 'Ada');
    await person.type(screen.getByLabelText('City'), 'Lagos');
    await person.click(screen.getByRole('button', { name: 'Refuse' }));
    expect(screen.getByText('That name is taken')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));

    await person.click(screen.getByRole('button', { name: 'Send' }));
    expect(sent).toBe(1);
    expect(screen.queryByText('That name is taken')).toBeNull();
  });
});
