import { apiUrl } from '@web/lib/api-origin.ts';

export function Avatar({
  src,
  name,
  className = 'size-9',
}: {
  src: string | null | undefined;
  name: string;
  className?: string;
}) {
  if (src) {
    return (
      <img
        src={apiUrl(src)}
        alt=""
        width={36}
        height={36}
        className={`${className} rounded-full object-cover`}
        loading="lazy"
        decoding="async"
      />
    );
  }
  const initial =
    name
      .replace(/^plucker_/, '')
      .charAt(0)
      .toUpperCase() || 'P';
  return (
    <span
      aria-hidden="true"
      className={`${className} grid place-items-center rounded-full bg-accent/15 font-bold text-accent`}
    >
      {initial}
    </span>
  );
}
