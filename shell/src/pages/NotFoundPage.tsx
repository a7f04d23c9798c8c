import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PageMeta } from '@yield/platform';

export function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);
  return (
    <main className="page-center">
      <PageMeta
        title="Page not found"
        description="The page you were looking for does not exist."
      />
      <h1 className="status-code">404</h1>
      <p className="status-text">Oops! Page not found</p>
      <Link className="btn btn-primary" to="/">
        Return to Home
      </Link>
    </main>
  );
}
