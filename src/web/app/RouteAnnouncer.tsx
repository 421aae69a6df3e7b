import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';

/**
 * Names each page the app swaps in: the document title, and for a screen reader, which
 * hears nothing when the content changes under it, a polite announcement of that title after
 * every navigation but the first (a page that has just loaded is read out by its title
 * already). The titles come in a chunk of their own (app/page-titles.ts), off the first
 * screen's download.
 */
export function RouteAnnouncer() {
  const [location] = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const loaded = useRef(false);

  useEffect(() => {
    let current = true;
    import('./page-titles.ts').then(
      ({ pageTitle }) => {
        if (!current) return;
        const title = pageTitle(location);
        document.title = title;
        if (loaded.current) setAnnouncement(title);
        loaded.current = true;
      },
      // A chunk that does not arrive leaves the title as it was.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [location]);

  return (
    <p className="sr-only" aria-live="polite" aria-atomic="true">
      {announcement}
    </p>
  );
}
