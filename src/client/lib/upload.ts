import { ApiError, apiErrorFromBody, NETWORK_ERROR, parseJsonText } from "./api";

export interface UploadResponse<T> {
  status: number;
  data: T;
}

/**
 * POSTs a multipart body with XMLHttpRequest, so the real upload progress is known (fetch cannot
 * report it). `onProgress` receives 0–100 as the bytes leave. Resolves with the JSON answer of a
 * 2xx; throws ApiError with the server's code, French message and fields otherwise, or with
 * NETWORK_ERROR (status 0) when the request could not be sent.
 */
export function postMultipart<T>(
  url: string,
  body: FormData,
  onProgress?: (percent: number) => void,
): Promise<UploadResponse<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress((event.loaded / event.total) * 100);
      };
    }
    xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR, "Le service n'a pas pu être joint."));
    xhr.onabort = xhr.onerror;
    xhr.ontimeout = xhr.onerror;
    xhr.onload = () => {
      const data = parseJsonText(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ status: xhr.status, data: data as T });
        return;
      }
      const error = apiErrorFromBody(xhr.status, data);
      if (error) {
        reject(error);
        return;
      }
      reject(new ApiError(xhr.status, "HTTP_ERROR", "Une erreur est survenue."));
    };
    xhr.send(body);
  });
}
