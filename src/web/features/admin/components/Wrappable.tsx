import { Fragment } from 'react';

/**
 * Text with line-break opportunities (<wbr>) after each character of `after` and before each
 * of `before`: an identifier or address too long for a narrow column wraps between its parts
 * (`open_` / `withdrawals`, `ada` / `@example.com`) instead of mid-word. Screen readers and
 * text matching see the text unchanged.
 */
export function Wrappable({
  text,
  after = '',
  before = '',
}: {
  text: string;
  after?: string;
  before?: string;
}) {
  const starts = [0];
  for (let position = 1; position < text.length; position += 1) {
    if (after.includes(text.charAt(position - 1)) || before.includes(text.charAt(position))) {
      starts.push(position);
    }
  }
  return (
    <>
      {starts.map((start, order) => (
        <Fragment key={start}>
          {start > 0 ? <wbr /> : null}
          {text.slice(start, starts[order + 1])}
        </Fragment>
      ))}
    </>
  );
}
