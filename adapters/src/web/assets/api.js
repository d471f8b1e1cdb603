// Calling the REST routes from a page (docs/web.md#client-calls): the same routes every client uses,
// with the session cookie. Writes send JSON, which the same-origin check and the JSON-only rule of
// every /api route turn into the CSRF defence. Errors arrive as problem+json and are thrown as
// ApiProblem, which `showProblem` renders as a readable notice.

export class ApiProblem extends Error {
  constructor(problem, status) {
    super(problem.title ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem.code ?? 'request.failed';
    this.title = problem.title ?? `The request failed (HTTP ${status})`;
    this.detail = problem.detail;
    this.problem = problem;
  }
}

/** `fetch` a REST route; returns the parsed JSON (or null for 204), throws ApiProblem otherwise. */
export async function api(path, { method = 'GET', body, headers = {}, signal } = {}) {
  const init = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...headers },
    signal,
  };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const type = res.headers.get('content-type') ?? '';
  const json = type.includes('json') ? await res.json().catch(() => null) : null;
  if (!res.ok) throw new ApiProblem(json ?? {}, res.status);
  return res.status === 204 ? null : json;
}

/** Runs a catalogue operation over REST: POST /api/ops/<name>; resolves to `{ result, events }`. */
export const runOp = (name, input = {}) =>
  api(`/api/ops/${encodeURIComponent(name)}`, { method: 'POST', body: input });

/** Replaces the content of `container` with a readable notice for an error (ApiProblem or any). */
export function showProblem(container, error) {
  const notice = document.createElement('div');
  notice.className = 'notice notice-error';
  notice.setAttribute('role', 'alert');
  const title = document.createElement('p');
  const strong = document.createElement('strong');
  strong.textContent = error instanceof ApiProblem ? error.title : 'Something went wrong.';
  title.append(strong);
  notice.append(title);
  if (error instanceof ApiProblem) {
    if (error.detail) {
      const detail = document.createElement('p');
      detail.textContent = error.detail;
      notice.append(detail);
    }
    const code = document.createElement('p');
    code.className = 'small muted';
    code.append('Error code: ');
    const c = document.createElement('code');
    c.textContent = error.code;
    c.dataset.errorCode = error.code;
    code.append(c);
    notice.append(code);
  }
  container.replaceChildren(notice);
}
