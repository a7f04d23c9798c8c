import { useLocation } from 'react-router-dom';
import { Compare } from '../features/compare/Compare.tsx';

/** /compare?ids=3,2,13 — two or three sources side by side; the ids are the page's state. */
export default function ComparePage() {
  const { search } = useLocation();
  return <Compare search={search} />;
}
