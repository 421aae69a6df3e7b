import { apiUrl } from '@web/lib/api-origin.ts';
import { useSavingData } from '@web/lib/data-saver.ts';

export function Avatar({
  src,
  name,
  className = 'size-9',
  keepPhoto = false,
}: {
  src: string | null | undefined;
  name: string;
  className?: string;
  /** Shown even in low-data mode (the player's own photo on their profile). */
  keepPhoto?: boolean;
}) {
  // Low-data mode: the initial instead of a photo download.
  const saving = useSavingData();
  if (src && (keepPhoto || !saving)) {
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
