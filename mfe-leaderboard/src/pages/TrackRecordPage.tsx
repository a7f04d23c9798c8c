import { PageMeta } from '@yield/platform';
import { TrackRecord } from '../features/track-record/TrackRecord.tsx';

/** /track-record: what following the comparison's top picks month by month would have paid. */
export default function TrackRecordPage() {
  return (
    <main className="page">
      <PageMeta
        title="Track record"
        description="Month by month, the comparison's top risk-adjusted and top APR picks as published on the first of the month, what each paid over the month, and the DeFi Base Rate."
      />
      <TrackRecord />
    </main>
  );
}
