import { PageMeta, useSiteSettings } from '@yield/platform';
import { METHOD_VERSION } from '@yield/contract/constants';
import { BackHome } from '../shared/components/BackHome.tsx';
import {
  BaseRate,
  Charges,
  DataOrigin,
  Example,
  MethodVersion,
  ShortVersion,
  Steps,
  WhatGoesIn,
} from '../features/methodology/RiskAdjustedMethod.tsx';
import { PoolsMethod } from '../features/methodology/PoolsMethod.tsx';
import { TrackRecordMethod } from '../features/methodology/TrackRecordMethod.tsx';
import { NetYieldMethod } from '../features/methodology/NetYieldMethod.tsx';
import { WarningsMethod } from '../features/methodology/WarningsMethod.tsx';
import { formatDay } from '@yield/ui';
import ui from '../shared/components/components.module.css';

export default function MethodologyPage() {
  const data = useSiteSettings()?.data;
  return (
    <main className="page">
      <PageMeta
        title="Methodology"
        description="The risk-adjusted 30-day APR and the DeFi Base Rate, explained in plain words."
      />
      <article className={`${ui.prose} ${ui.proseWide}`}>
        <BackHome />
        <h1>How We Compute the Risk-Adjusted APR</h1>
        <p className={ui.leadLeft}>
          One number you can compare across every yield source: what it paid over its last 30 days,
          minus a charge for each risk it carried.
        </p>
        <p className={ui.meta}>
          Method <code>{METHOD_VERSION}</code>
          {data ? (
            <>
              {' '}
              · {data.sample ? 'Sample data' : 'Data'} as of {formatDay(data.asOf)}
            </>
          ) : null}
        </p>

        <ShortVersion />
        <WhatGoesIn />
        <DataOrigin />
        <Steps />
        <Charges />
        <BaseRate />
        <Example />
        <WarningsMethod />
        <PoolsMethod />
        <TrackRecordMethod />
        <NetYieldMethod />
        <MethodVersion />
      </article>
    </main>
  );
}
