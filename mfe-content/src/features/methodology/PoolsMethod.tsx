/**
 * The /methodology page's section on the scanner's method, rapool-v3, in plain words (the
 * reference: docs/methodology.md, "Pools: rapool-v3" and "Pools: rapool-v2"). Every figure is an
 * APR. The fitted coefficients and the
 * out-of-time figures come from rapool-v3-fit.json, written by
 * `pnpm --filter @yield/api method:fit -- --write` (a test in api/ checks it is current).
 */
import { Link } from 'react-router-dom';
import { POOL_METHOD_VERSION } from '@yield/contract/constants';
import { POOL_CHARGES } from '@yield/ui';
import ui from '../../shared/components/components.module.css';
import fit from './rapool-v3-fit.json';

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
const day = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

export function PoolsMethod() {
  const c = fit.coefficients;
  return (
    <section aria-labelledby="pools-title">
      <h2 id="pools-title">Pools: {POOL_METHOD_VERSION}</h2>
      <p>
        The <Link to="/scanner">yield scanner</Link> ranks every pool DeFiLlama tracks. A pool that
        shows 300% today rarely pays 300% next month: launch incentives fade and spikes pass. So the
        method (<code>{POOL_METHOD_VERSION}</code>, versioned like the comparison&apos;s) first
        estimates what a pool will pay over the next 30 days, then takes off what its APY does not
        show.
      </p>
      <h3>Expected APR: what the pool will pay over the next 30 days</h3>
      <ul>
        <li>
          <strong>Its level</strong>: the average of its last 30 days with the{' '}
          {Math.round(c.trim * 100)}% highest and lowest days left out, so a few days&apos; spike
          does not count; the part paid in incentive tokens is kept at {c.rewardKeep * 100}%.
        </li>
        <li>
          <strong>Pulled towards what comparable pools paid</strong>: pools paying mostly in
          incentive tokens went on to pay {c.priors.rewardHeavy}% a year, other pools{' '}
          {c.priors.other}%. The pool&apos;s own level weighs {c.beta * 100}%, the rest is the
          comparable pools&apos; figure, on a growth scale, so a 300% level is pulled down much more
          than a 5% one.
        </li>
        <li>
          <strong>Until we hold 30 days of a pool&apos;s own daily history</strong> (today: every
          pool), the level is DeFiLlama&apos;s 30-day average and its weight is cut to a quarter: a
          pool paying more than comparable pools is pulled hard down towards them, one paying less
          keeps its own figure.
        </li>
      </ul>
      <h3>The charges</h3>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${ui.stack}`}>
          <caption className="visually-hidden">Pool risk charges and how each is computed</caption>
          <thead>
            <tr>
              <th scope="col">Charge</th>
              <th scope="col">How it is computed</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{POOL_CHARGES.impermanentLoss.label}</th>
              <td data-label="Computed">
                Half of the fee part of the expected figure when DeFiLlama expects impermanent loss
                (DeFiLlama&apos;s own 7-day figure, annualised, when it has one)
              </td>
              <td data-label="Why">
                A pair&apos;s fees pay for holding two assets that drift apart; the higher the fees,
                the more the pool is paying for.
              </td>
            </tr>
            <tr>
              <th scope="row">{POOL_CHARGES.rewardPrice.label}</th>
              <td data-label="Computed">30% of the incentive part</td>
              <td data-label="Why">Reward tokens are sold as they are paid and lose value.</td>
            </tr>
            <tr>
              <th scope="row">{POOL_CHARGES.outflow.label}</th>
              <td data-label="Computed">
                Half of the expected figure times the share by which deposits fell below their
                30-day median
              </td>
              <td data-label="Why">
                Money leaving a pool is a warning about the yield that is left.
              </td>
            </tr>
            <tr>
              <th scope="row">{POOL_CHARGES.size.label}</th>
              <td data-label="Computed">0.25 for every factor of ten the deposits are below $1B</td>
              <td data-label="Why">Small pools are less tested and easier to disrupt.</td>
            </tr>
            <tr>
              <th scope="row">{POOL_CHARGES.safety.label}</th>
              <td data-label="Computed">
                By the project&apos;s safety score, the same table as above
              </td>
              <td data-label="Why">
                The expected loss from hacks and failures, which takes principal, not yield; any
                project we have not reviewed gets the cautious score 2 (3.00 points).
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        The risk-adjusted APR is the expected APR minus the charges, never above it; it can be
        negative, and we show it as it is.
      </p>
      <h3>Does the ranking work?</h3>
      <p>
        We fitted the method on {fit.pools} real pool histories from DeFiLlama up to{' '}
        {day(fit.fit.to)} and then checked it, untouched, on {fit.test.days} later days (
        {day(fit.test.from)} to {day(fit.test.to)}): each day, how well each figure put the pools in
        the order of the APR they actually paid over the next 30 days (a rank correlation, 1 is a
        perfect order), and how often the ten best-looking pools paid less than half of their
        figure. The figures are APRs (DeFiLlama&rsquo;s APYs turned into the APRs behind them); the
        baseline is the 30-day average APR minus a quarter of its swings.
      </p>
      <div className={ui.tableWrap}>
        <table className={ui.table}>
          <caption className="visually-hidden">
            How well each figure ranked pools by what they paid next
          </caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">Rank correlation</th>
              <th scope="col">Top 10 that paid under half</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Expected</th>
              <td>{fit.spearman.expected.toFixed(3)}</td>
              <td>{pct(fit.top10.expected.disappoint)}</td>
            </tr>
            <tr>
              <th scope="row">Risk-adjusted</th>
              <td>{fit.spearman.riskAdjusted.toFixed(3)}</td>
              <td>{pct(fit.top10.riskAdjusted.disappoint)}</td>
            </tr>
            <tr>
              <th scope="row">Today&rsquo;s APY</th>
              <td>{fit.spearman.apy.toFixed(3)}</td>
              <td>{pct(fit.top10.apy.disappoint)}</td>
            </tr>
            <tr>
              <th scope="row">30-day average APR</th>
              <td>{fit.spearman.trailing30.toFixed(3)}</td>
              <td>N/A</td>
            </tr>
            <tr>
              <th scope="row">Baseline</th>
              <td>N/A</td>
              <td>{pct(fit.top10.baseline.disappoint)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        The histories are pools of three exchanges only (no lending market, no stablecoin savings
        pool), so treat these figures as a first measurement, not a guarantee.
      </p>
    </section>
  );
}
