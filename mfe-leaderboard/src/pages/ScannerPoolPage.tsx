import { useParams } from 'react-router-dom';
import { PoolPage } from '../features/scanner/PoolPage.tsx';

/** /scanner/pool/:pool: one pool of the scanner, its history and current figures. */
export default function ScannerPoolPage() {
  const { pool = '' } = useParams();
  return (
    <main className="page">
      <PoolPage pool={pool} />
    </main>
  );
}
