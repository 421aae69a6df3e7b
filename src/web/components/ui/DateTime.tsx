import { formatDate } from '@shared/date.ts';

/**
 * A date and time as `formatDate` writes it, in a `<time>`. The space before "am"/"pm" does not
 * break, so a narrow column never ends a line with "2:17" and starts the next with "am".
 */
export function DateTime({ value, className }: { value: string; className?: string }) {
  return (
    <time dateTime={value} className={className}>
      {formatDate(value).replace(/ ([ap]m)$/, '\u00A0$1')}
    </time>
  );
}
