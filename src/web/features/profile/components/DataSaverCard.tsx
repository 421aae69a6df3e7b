import { Card } from '@web/components/ui/Card.tsx';
import { browserSavesData, setDataSaverSwitch, useDataSaverSwitch } from '@web/lib/data-saver.ts';

export const DATA_SAVER_HINT =
  'Uses fewer megabytes: photos are shown as initials, nothing loads ahead of time and updates are checked less often. Kept on this device.';

/** Low-data mode: the player's own switch, beside the browser's Save-Data hint. */
export function DataSaverCard() {
  const on = useDataSaverSwitch();
  const byBrowser = browserSavesData();
  return (
    <Card>
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="data-saver-label" className="text-lg font-bold">
            Data saver
          </h2>
          <p id="data-saver-hint" className="text-sm text-muted">
            {DATA_SAVER_HINT}
            {byBrowser
              ? ' Your browser asks to save data too, so it is on whatever you choose.'
              : ''}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="data-saver-label"
          aria-describedby="data-saver-hint"
          onClick={() => setDataSaverSwitch(!on)}
          className={`relative inline-flex h-8 w-14 shrink-0 items-center rounded-full border-2 transition-colors ${
            on ? 'border-accent bg-accent' : 'border-line bg-page'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-6 rounded-full bg-white shadow transition-transform ${
              on ? 'translate-x-6' : 'translate-x-0.5'
            }`}
          />
        </button>
      </div>
    </Card>
  );
}
