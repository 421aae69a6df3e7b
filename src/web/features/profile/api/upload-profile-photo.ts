import { API_BASE, HTTP_TIMEOUT_MS } from '@shared/constants.ts';
import { ERROR_MESSAGES } from '@shared/messages.ts';
import { apiUrl } from '@web/lib/api-origin.ts';
import { ApiError, codeOf, TRANSPORT_MESSAGES } from '@web/lib/http.ts';
import { tokenStorage } from '@web/lib/storage.ts';

/**
 * Multipart upload through XMLHttpRequest, because fetch cannot report upload progress and a
 * 5 MB photo on a slow network deserves a progress bar.
 */
export function uploadProfilePhoto(
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ profilePhoto: string; message: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(`${API_BASE}/upload/profile-photo`));
    xhr.timeout = HTTP_TIMEOUT_MS * 3;
    xhr.responseType = 'json';
    const token = tokenStorage.get();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { message?: string; data?: { profilePhoto: string } } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.data) {
        resolve({ profilePhoto: body.data.profilePhoto, message: body.message ?? '' });
        return;
      }
      const code = codeOf(body);
      const message = code === 'UNAUTHORIZED' ? ERROR_MESSAGES.unauthorized : body?.message;
      reject(new ApiError(message ?? ERROR_MESSAGES.generic, xhr.status, code));
    };
    xhr.onerror = () => reject(new ApiError(TRANSPORT_MESSAGES.network, 0, 'NO_ANSWER'));
    xhr.ontimeout = () => reject(new ApiError(TRANSPORT_MESSAGES.timeout, 0, 'NO_ANSWER'));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
