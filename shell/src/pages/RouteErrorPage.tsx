import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** The router's error screen ('Unexpected Application Error!'). */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <main className="page-center">
      <h1>Unexpected Application Error!</h1>
      {detail ? <p className="muted">{detail}</p> : null}
      <a className="btn btn-primary" href="/">
        Return to Home
      </a>
    </main>
  );
}
