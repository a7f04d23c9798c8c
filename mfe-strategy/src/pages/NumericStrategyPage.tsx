import { NumericStrategy } from '../features/numeric/NumericStrategy.tsx';

export default function NumericStrategyPage() {
  return <NumericStrategy />;
}
