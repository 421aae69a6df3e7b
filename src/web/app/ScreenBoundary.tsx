import { Button } from '@web/components/ui/Button.tsx';
import { OfflineNotice } from '@web/components/ui/LoadingState.tsx';
import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { sessionCopy } from '@web/lib/storage.ts';
import { Component, Fragment, type ReactNode } from 'react';

/**
 * A screen's code that did not arrive: the connection dropped (no service worker serves it on a
 * first visit or in Data saver) or a deploy removed the file this build names.
 */
export class ScreenCodeError extends Error {
  /** `reload` makes the screen ask for its code again the next time it mounts. */
  constructor(
    cause: unknown,
    readonly reload: () => void,
  ) {
    super('The screen could not be loaded', { cause });
    this.name = 'ScreenCodeError';
  }
}

/** When the page last reloaded to pick up a new build, so that it never reloads in a loop. */
const RELOADED_AT_KEY = 'pluckers.reloadedForNewBuild';
/** A second missing file within this long of a reload is not a deploy the reload can fix. */
const RELOAD_QUIET_MS = 60_000;

/** Reloads to the build now deployed, at most once a minute; false when it just did. */
function reloadOnceForNewBuild(): boolean {
  const last = Number(sessionCopy.get(RELOADED_AT_KEY) ?? 0);
  if (Date.now() - last < RELOAD_QUIET_MS) return false;
  sessionCopy.set(RELOADED_AT_KEY, String(Date.now()));
  window.location.reload();
  return true;
}

/**
 * Whether the site answers at all. `navigator.onLine` stays true on a connection that carries
 * nothing, so a file that failed while "online" is told apart from a file that is gone by
 * asking for the page itself, never from a cache.
 */
async function siteReachable(): Promise<boolean> {
  try {
    const response = await fetch('/', { method: 'HEAD', cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

type Failure = 'checking' | 'offline' | 'reloading' | 'unavailable';

interface State {
  failure: Failure | null;
  /** What failed, to be asked for again on retry. */
  failed?: ScreenCodeError;
  /** An error that is not about a screen's code, rethrown for the boundaries above. */
  other?: unknown;
  /** Remounts the screen on each retry, so its code is asked for again. */
  attempt: number;
}

/**
 * Where a screen's code fails to load, shows why in its place instead of unmounting the app:
 * inside the layout the navigation stays. Offline it says so with Retry and tries again by
 * itself when the browser is back online; with the site reachable the file is gone after a
 * deploy, and the page reloads once to the new build. Other errors pass on unchanged.
 */
export class ScreenBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failure: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return error instanceof ScreenCodeError
      ? { failure: 'checking', failed: error }
      : { other: error };
  }

  override componentDidCatch(error: unknown): void {
    if (error instanceof ScreenCodeError) void this.diagnose();
  }

  override componentDidMount(): void {
    window.addEventListener('online', this.retry);
  }

  override componentWillUnmount(): void {
    window.removeEventListener('online', this.retry);
  }

  private async diagnose(): Promise<void> {
    if (!navigator.onLine || !(await siteReachable())) {
      this.setState({ failure: 'offline' });
      return;
    }
    this.setState({ failure: reloadOnceForNewBuild() ? 'reloading' : 'unavailable' });
  }

  private retry = (): void => {
    if (this.state.failure === null || this.state.failure === 'reloading') return;
    // Nothing would arrive: the notice says "Still offline" and the online event retries.
    if (!navigator.onLine) return;
    this.state.failed?.reload();
    this.setState(({ attempt }) => ({ failure: null, failed: undefined, attempt: attempt + 1 }));
  };

  override render(): ReactNode {
    const { failure, attempt, other } = this.state;
    if (other !== undefined) throw other;
    if (failure === null) return <Fragment key={attempt}>{this.props.children}</Fragment>;
    if (failure === 'checking' || failure === 'reloading') {
      return <PageSpinner label="Loading this screen" />;
    }
    return (
      <div className="grid min-h-[50dvh] place-items-center">
        {failure === 'offline' ? (
          <OfflineNotice onRetry={this.retry} what="This screen" />
        ) : (
          <div role="alert" className="flex max-w-xs flex-col items-center gap-2 px-4 text-center">
            <p className="font-semibold">This screen did not load</p>
            <p className="text-sm text-muted">Check your connection and try again.</p>
            <Button variant="outline" className="mt-1" onClick={this.retry}>
              Retry
            </Button>
          </div>
        )}
      </div>
    );
  }
}
