import { Navigate, useParams } from 'react-router-dom';
import { StrategyDetail } from '../features/detail/StrategyDetail.tsx';
import { isStrategySlug } from '@yield/contract/constants';

/** /options/:id — one of the four public strategies; any other id is replaced by /options. */
export default function StrategyDetailPage() {
  const { id } = useParams();
  if (!isStrategySlug(id)) return <Navigate replace to="/options" />;
  // Keyed by slug so moving between strategies starts from a clean state (range, modal).
  return <StrategyDetail key={id} slug={id} />;
}
