/**
 * The /methodology page's section on the scanner's method, rapool-v1, in plain words (the
 * reference: docs/methodology.md, "Pools: rapool-v1"). DeFiLlama's `sigma` and `mu` are said
 * before they are used. Changing a coefficient of rapool-v1 means updating this text too.
 */
import { Link } from 'react-router-dom';
import { POOL_METHOD_VERSION } from '@yield/contract/constants';
import ui from '../components/components.module.css';

export function PoolsMethod() {
  return (
    <section aria-labelledby="pools-title">
      <h2 id="pools-title">Pools: {POOL_METHOD_VERSION}</h2>
      <p>
        The <Link to="/scanner">yield scanner</Link> ranks every pool DeFiLlama tracks, about 20,000
        of them, with the same idea: the pool&apos;s APY minus a charge for each risk, in percentage
        points a year. A pool has no history in our data, only DeFiLlama&apos;s daily snapshot of
        it, so the method (<code>{POOL_METHOD_VERSION}</code>, versioned like the comparison&apos;s)
        works from the numbers DeFiLlama publishes for each pool.
      </p>
      <h3>What DeFiLlama tells us about a pool</h3>
      <ul>
        <li>
          <strong>The APY</strong>, split into the part the pool pays itself (interest, fees,
          staking) and the part paid in incentive tokens, and the average APY of the last 30 days.
        </li>
        <li>
          <strong>mu</strong>: the pool&apos;s average yield over its whole tracked history, with
          compounding, as a percent a year.
        </li>
        <li>
          <strong>sigma</strong>: how much the pool&apos;s daily returns have swung over its whole
          tracked history, scaled to a year. Multiplied by the square root of 365 (about 19), it is
          roughly how many percentage points the APY moves up or down.
        </li>
        <li>
          <strong>How long it has been tracked</strong> (in days), its deposits (TVL), whether it
          holds several assets that can drift apart (impermanent loss), and the project running it.
        </li>
        <li>
          <strong>Outlier</strong>: DeFiLlama flags a pool whose mu or sigma is far from the
          crowd&apos;s, usually a launch spike or a broken price. Outliers are left out unless you
          ask for them.
        </li>
      </ul>
      <h3>The five charges</h3>
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
              <th scope="row">Volatility</th>
              <td data-label="Computed">
                sigma × 19 (the APY&apos;s typical swing); for a pool tracked under 20 days, at
                least half its APY
              </td>
              <td data-label="Why">
                An unsteady rate is a less certain income, and a brand-new rate is not a measurement
                yet.
              </td>
            </tr>
            <tr>
              <th scope="row">Incentives</th>
              <td data-label="Computed">0.5 × the incentive part of the APY</td>
              <td data-label="Why">Reward tokens lose value and programmes end.</td>
            </tr>
            <tr>
              <th scope="row">Impermanent loss</th>
              <td data-label="Computed">
                2.00 when DeFiLlama expects impermanent loss; 0.25 for other multi-asset pools
              </td>
              <td data-label="Why">
                Two assets that drift 1.5× apart in a year cost a 50/50 pool about 2%; even a
                stablecoin pair can lose one coin to a depeg.
              </td>
            </tr>
            <tr>
              <th scope="row">Size</th>
              <td data-label="Computed">0.25 for every factor of ten the deposits are below $1B</td>
              <td data-label="Why">Small pools are less tested and easier to disrupt.</td>
            </tr>
            <tr>
              <th scope="row">Safety</th>
              <td data-label="Computed">
                By the project&apos;s safety score, the same table as above
              </td>
              <td data-label="Why">
                The expected loss from hacks and failures. A project we score as a source takes that
                score; a short, dated list rates other large projects; any other project gets the
                cautious score 2 (3.00 points).
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        The risk-adjusted APY is the APY (the 30-day average when DeFiLlama has one) minus the five
        charges. Like the comparison&apos;s figure it can be negative, and we show it as it is. A
        snapshot says nothing about how fast you can leave a pool or whether deposits are flowing
        out, so there is no liquidity or outflow charge: compare a pool with the sources of the
        comparison with that in mind.
      </p>
    </section>
  );
}
