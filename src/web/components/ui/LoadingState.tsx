import { retryOffline, useOnline } from '@web/lib/offline.ts';
import { useState } from 'react';
import { Button } from './Button.tsx';
import { Spinner } from './Spinner.tsx';

interface LoadingProps {
  label?: string;
  className?: string;
}

/**
 * A spinner for content being read from the server. Offline, reads wait for the connection
 * rather than fail, so instead of spinning on it says so and offers Retry;
 * what was waiting loads by itself once the browser is back online.
 */
export function Loading({ label = 'Loading', className = 'size-6' }: LoadingProps) {
  const online = useOnline();
  if (online) return <Spinner label={label} className={className} />;
  return <OfflineNotice onRetry={retryOffline} />;
}

interface OfflineNoticeProps {
  /** Tries again; the notice then says "Still offline" while the browser reports no connection. */
  onRetry: () => void;
  /** What comes back by itself once online. */
  what?: string;
}

/** "You're offline" with Retry, for whatever waits on the connection (a read, a screen's code). */
export function OfflineNotice({ onRetry, what = 'This' }: OfflineNoticeProps) {
  const [stillOffline, setStillOffline] = useState(false);
  return (
    <div role="status" className="flex max-w-xs flex-col items-center gap-2 px-4 text-center">
      {/* Drawn, not an emoji: phones without an emoji font would show a blank box. */}
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-8 text-accent"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      >
        <path d="M2 8.8a15 15 0 0 1 4.2-2.6M10.7 5.1A15 15 0 0 1 22 8.8M5 12.5a10 10 0 0 1 5.2-2.8M19 12.5a10 10 0 0 0-2-1.4M8.5 16a5 5 0 0 1 7 0M12 20h.01M3 3l18 18" />
      </svg>
      <p className="font-semibold">You're offline</p>
      <p className="text-sm text-muted">
        {stillOffline ? 'Still offline. ' : ''}
        {what} loads by itself when you're back online.
      </p>
      <Button
        variant="outline"
        className="mt-1"
        onClick={() => {
          onRetry();
          setStillOffline(!navigator.onLine);
        }}
      >
        Retry
      </Button>
    </div>
  );
}

/** The same for a whole screen's content. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="grid min-h-[50dvh] place-items-center">
      <Loading label={label} className="size-8" />
    </div>
  );
}
