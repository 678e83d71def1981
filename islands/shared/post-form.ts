// POSTs a server-rendered form with fetch and reads the JSON answer (the handlers answer
// JSON instead of a redirect when the request says `Accept: application/json`).
// For islands. enhance/forms.ts has its own copy of these few lines on purpose: see there.

export interface FormAnswer {
  /** HTTP status. */
  status: number;
  /** The parsed JSON body; null when the answer was not JSON (an error page, a redirect to HTML). */
  data: Record<string, unknown> | null;
}

/**
 * Sends the form's fields to its action as application/x-www-form-urlencoded, with
 * `Accept: application/json`. No token: the server refuses cross-site posts by the
 * browser's Sec-Fetch-Site and Origin headers, which fetch sends by itself. Rejects only on a network
 * failure; any HTTP answer resolves.
 */
export async function postForm(form: HTMLFormElement, signal?: AbortSignal): Promise<FormAnswer> {
  // FormData iterates as [name, value] pairs; these forms have no file inputs.
  const body = new URLSearchParams(new FormData(form) as unknown as string[][]);
  const res = await fetch(form.action, {
    method: "POST",
    body,
    headers: { Accept: "application/json" },
    credentials: "same-origin",
    signal,
  });
  let data: unknown = null;
  if (res.headers.get("Content-Type")?.includes("application/json")) {
    data = await res.json().catch(() => null);
  }
  const ok = data !== null && typeof data === "object" && !Array.isArray(data);
  return { status: res.status, data: ok ? (data as Record<string, unknown>) : null };
}

/** A same-origin path from the server's JSON (e.g. `login`), else "". */
export function localPath(url: unknown): string {
  return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") && !url.startsWith("/\\") ? url : "";
}
