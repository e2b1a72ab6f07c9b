/** Code given to failures where the service could not be reached at all. */
export const NETWORK_ERROR = "NETWORK_ERROR";

/** The French sentence shown when the service cannot be reached, outside the auth pages. */
export const DEFAULT_NETWORK_MESSAGE =
  "Impossible de joindre le service. Vérifiez votre connexion internet et réessayez.";

/** An error answered by our API (architecture.md "Errors have one shape") or a network failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** True when the service could not be reached or said it is unavailable (network, 502-504). */
export function isNetworkError(error: unknown): boolean {
  return isApiError(error) && (error.code === NETWORK_ERROR || error.status === 503);
}

/** Same text as MESSAGES.internal of src/shared/schemas/common.ts (kept out of the landing bundle). */
const UNEXPECTED_MESSAGE = "Une erreur est survenue. Veuillez réessayer plus tard.";

export interface ApiRequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
  /** Message of the ApiError thrown when the service cannot be reached (see NETWORK_MESSAGES). */
  networkMessage?: string;
}

/** A response's text as JSON, or null when it is empty or not JSON (a proxy's page, a cut answer). */
export function parseJsonText(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The ApiError an error answer of our API carries (`{ error: { code, message, fields? } }`, French
 * message, only the string fields kept), or null when the body has not that shape.
 */
export function apiErrorFromBody(status: number, value: unknown): ApiError | null {
  if (!value || typeof value !== "object" || !("error" in value)) return null;
  const error = (value as { error: unknown }).error;
  if (!error || typeof error !== "object") return null;
  const { code, message, fields } = error as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return null;
  const cleanFields: Record<string, string> = {};
  if (fields && typeof fields === "object") {
    for (const [key, text] of Object.entries(fields)) if (typeof text === "string") cleanFields[key] = text;
  }
  return new ApiError(status, code, message, cleanFields);
}

/**
 * Calls our JSON API on the same origin with the session cookie. Resolves with the parsed body
 * (undefined for 204), throws ApiError for any non-2xx answer or when the network fails.
 */
export async function api<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? "GET" : "POST", body, signal } = options;
  const networkMessage = options.networkMessage ?? DEFAULT_NETWORK_MESSAGE;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, NETWORK_ERROR, networkMessage);
  }

  if (response.status === 204) return undefined as T;

  const data = parseJsonText(await response.text().catch(() => ""));
  if (response.ok) return data as T;

  const error = apiErrorFromBody(response.status, data);
  if (error) throw error;
  // No JSON error body: a proxy or gateway answered, the API itself is unreachable.
  if (response.status >= 502 && response.status <= 504) {
    throw new ApiError(503, "SERVICE_UNAVAILABLE", networkMessage);
  }
  throw new ApiError(response.status, "HTTP_ERROR", UNEXPECTED_MESSAGE);
}
