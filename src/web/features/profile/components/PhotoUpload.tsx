import { ERROR_MESSAGES, VALIDATION_MESSAGES } from '@shared/messages.ts';
import { errorMessage } from '@web/lib/http.ts';
import { getSession, setUser } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { type ChangeEvent, useRef, useState } from 'react';
import { uploadProfilePhoto } from '../api/upload-profile-photo.ts';

export function PhotoUpload() {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!(file instanceof File) || !file.type.startsWith('image/')) {
      toast.error(VALIDATION_MESSAGES.profilePhoto);
      return;
    }
    setProgress(0);
    try {
      const result = await uploadProfilePhoto(file, setProgress);
      const user = getSession().user;
      if (user) setUser({ ...user, profilePhoto: result.profilePhoto });
      toast.success(result.message || 'Profile photo updated');
    } catch (error) {
      toast.error(errorMessage(error, ERROR_MESSAGES.generic));
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="flex w-full flex-col items-stretch gap-2 sm:w-auto">
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => void onChange(event)}
      />
      <button
        type="button"
        disabled={progress !== null}
        onClick={() => input.current?.click()}
        className="min-h-11 rounded-xl border border-line px-4 text-sm font-semibold hover:border-accent hover:text-accent disabled:opacity-60"
      >
        {progress === null ? 'Change photo' : 'Uploading…'}
      </button>
      {progress !== null ? (
        <progress
          value={Math.round(progress * 100)}
          max={100}
          aria-label="Upload progress"
          className="h-2 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-line [&::-webkit-progress-value]:bg-accent"
        />
      ) : null}
    </div>
  );
}
